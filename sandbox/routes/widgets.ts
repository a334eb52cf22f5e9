import { z } from "zod";
import { describeIssues, type Routes } from "../context";
import { publicUrlOf, type SandboxWidget } from "../data/widgets";
import { TEAM_AGENTS, type TeamAgent } from "../data/team";
import { fail, readJson, send } from "../http";
import { flowState } from "../flows/state";
import { teamState } from "../flows/team-state";

// Team routes on the agency's links (service-notes, "Widgets"):
//   GET    /widgets?limit&before   { success, widgets } newest first; 400 VALIDATION_ERROR
//   POST   /widgets                { success, widget }; 400 INVALID_INPUT, INVALID_AGENT_ID,
//                                  WIDGET_LIMIT_EXCEEDED, ALREADY_EXISTS
//   GET    /widgets/{id}           { success, widget }; 404 NOT_FOUND
//   PATCH  /widgets/{id}           { success, widget }; 400 as POST (but the limit)
//   DELETE /widgets/{id}           { success }

/** The plan's number of links; the sandbox seeds three. */
export const WIDGET_LIMIT = 10;

const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  before: z.uuid().optional(),
});

const agentRef = z.union([z.uuid(), z.object({ agent_id: z.uuid() }).transform((a) => a.agent_id)]);
const fieldsSchema = z.strictObject({
  intro_title: z.string().trim().min(1).max(200).nullable().optional(),
  public_alias: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/i, "letters, digits and dashes, 2 to 63 characters")
    .optional(),
  company_name: z.string().trim().min(1).max(200).nullable().optional(),
  brand_color_hex: z
    .string()
    .regex(/^[0-9a-f]{6}$/i, "six hex digits (RRGGBB)")
    .nullable()
    .optional(),
  success_message: z.string().trim().min(1).max(1_000).nullable().optional(),
  on_success_redirect_url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional(),
  cobranded_intro_screen: z.boolean().optional(),
  /** Agent ids, or objects carrying one (both forms are published). */
  agents: z.array(agentRef).max(100).optional(),
});
type Fields = z.output<typeof fieldsSchema>;

/** Agents by id, or the first unknown id. */
function resolveAgents(ids: string[]): { ok: true; agents: TeamAgent[] } | { ok: false; id: string } {
  const agents: TeamAgent[] = [];
  for (const id of new Set(ids)) {
    const agent = TEAM_AGENTS.find((a) => a.agent_id === id);
    if (!agent) return { ok: false, id };
    agents.push(agent);
  }
  return { ok: true, agents };
}

const ONE = /^\/widgets\/([^/]+)$/;

export const widgetsRoutes: Routes = async (ctx, { req, res, method, path, url }) => {
  const one = ONE.exec(path);
  if (path !== "/widgets" && !one) return false;
  const widgets = teamState(ctx).widgets;

  /** Checks a create or patch body against the team's links; `self` is the link being patched. */
  async function readFields(
    self: SandboxWidget | null,
  ): Promise<{ fields: Fields; agents: TeamAgent[] | undefined } | null> {
    const body = await readJson(req);
    if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.") && null;
    const parsed = fieldsSchema.safeParse(body.value);
    if (!parsed.success) return fail(res, 400, "INVALID_INPUT", describeIssues(parsed.error.issues)) && null;
    const fields = parsed.data;
    const resolved = fields.agents ? resolveAgents(fields.agents) : null;
    if (resolved && !resolved.ok)
      return fail(res, 400, "INVALID_AGENT_ID", `No agent ${resolved.id} in the team.`) && null;
    const alias = fields.public_alias?.toLowerCase();
    if (alias && [...widgets.values()].some((w) => w !== self && w.public_alias === alias))
      return fail(res, 400, "ALREADY_EXISTS", `A link with the alias ${alias} exists.`) && null;
    return { fields: { ...fields, public_alias: alias }, agents: resolved?.agents };
  }

  if (!one) {
    if (method === "GET") {
      const query = listQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
      const newestFirst = [...widgets.values()].reverse();
      const { limit, before } = query.data;
      const at = before ? newestFirst.findIndex((w) => w.widget_id === before) : -1;
      if (before && at < 0) return fail(res, 400, "VALIDATION_ERROR", "before: no link with this id");
      return send(res, 200, { success: true, widgets: newestFirst.slice(at + 1, at + 1 + limit) });
    }
    if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const read = await readFields(null);
    if (!read) return true;
    if (widgets.size >= WIDGET_LIMIT)
      return fail(res, 400, "WIDGET_LIMIT_EXCEEDED", `The plan allows ${WIDGET_LIMIT} links.`);
    const widgetId = flowState(ctx).random.uuid();
    // Without an alias the service makes one up.
    const alias = read.fields.public_alias ?? `link-${widgetId.slice(0, 8)}`;
    const { agents: _refs, ...fields } = read.fields;
    const created: SandboxWidget = {
      widget_id: widgetId,
      intro_title: null,
      company_name: null,
      success_message: null,
      on_success_redirect_url: null,
      brand_color_hex: null,
      cobranded_intro_screen: false,
      ...fields,
      public_alias: alias,
      is_sandbox: true,
      public_url: publicUrlOf(alias),
      logo_src: null,
      icon_src: null,
      agents: read.agents ?? [...TEAM_AGENTS],
    };
    widgets.set(widgetId, created);
    return send(res, 200, { success: true, widget: created });
  }

  const widget = widgets.get(one[1] ?? "");
  if (!widget) return fail(res, 404, "NOT_FOUND");
  if (method === "GET") return send(res, 200, { success: true, widget });
  if (method === "DELETE") {
    widgets.delete(widget.widget_id);
    return send(res, 200, { success: true });
  }
  if (method !== "PATCH") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const read = await readFields(widget);
  if (!read) return true;
  const { agents: _refs, ...fields } = read.fields;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const patched: SandboxWidget = { ...widget, ...defined, agents: read.agents ?? widget.agents };
  patched.public_url = publicUrlOf(patched.public_alias);
  widgets.set(widget.widget_id, patched);
  return send(res, 200, { success: true, widget: patched });
};
