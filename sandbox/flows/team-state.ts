import type { SandboxContext } from "../context";
import { SEEDED_WIDGETS, type SandboxWidget } from "../data/widgets";
import { DEFAULT_POLICY_CHECK_SETTINGS, type PolicyCheckSettings } from "./policy-check-settings";
import type { ServicingRecord } from "./servicing-record";
import { flowState, type FlowState } from "./state";

// The team's own configuration and requests beside the book of pulls: its links (widgets),
// its servicing requests, its policy-check rules and what its plan includes. Keyed by the
// flow state, so the control API's reset (which replaces that) starts this afresh as well.

/**
 * Features the service sells separately; a team without one gets 403 FORBIDDEN on its routes.
 * `whitelabel`: reconnecting a monitored account from the agency's own page (the reconnect-token
 * exchange); without it the consumer reconnects on the service's hosted page (`reconnect_url`).
 */
export type Plan = { policyCheck: boolean; policySearch: boolean; enrichment: boolean; whitelabel: boolean };

export type TeamState = {
  widgets: Map<string, SandboxWidget>;
  servicings: Map<string, ServicingRecord>;
  policyCheckSettings: PolicyCheckSettings;
  plan: Plan;
  /**
   * Mode A: the team monitors every linked account at this interval, as set up with the service
   * out of the API's reach; null when monitoring is started pull by pull.
   */
  teamWideMonitoring: string | null;
};

const states = new WeakMap<FlowState, TeamState>();

export function teamState(ctx: SandboxContext): TeamState {
  const flows = flowState(ctx);
  let state = states.get(flows);
  if (!state) {
    state = {
      widgets: new Map(SEEDED_WIDGETS.map((w) => [w.widget_id, structuredClone(w)])),
      servicings: new Map(),
      policyCheckSettings: structuredClone(DEFAULT_POLICY_CHECK_SETTINGS),
      plan: {
        policyCheck: ctx.options.plan?.policyCheck ?? true,
        policySearch: ctx.options.plan?.policySearch ?? true,
        enrichment: ctx.options.plan?.enrichment ?? true,
        whitelabel: ctx.options.plan?.whitelabel ?? true,
      },
      teamWideMonitoring: null,
    };
    states.set(flows, state);
  }
  return state;
}

/** The link with this public alias, if the team has one. */
export function widgetByAlias(ctx: SandboxContext, alias: string): SandboxWidget | null {
  for (const widget of teamState(ctx).widgets.values()) if (widget.public_alias === alias) return widget;
  return null;
}
