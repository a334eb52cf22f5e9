import { Badge } from "@/components/ui/badge";
import { FieldList } from "@/components/ui/field-list";
import { DASH, formatAddress, formatCents, formatInterval, fullName, humanize, text, yesNo } from "@/lib/format";
import { householdOf } from "@/lib/pulls/household";
import { pullTypeLabel, READING_TYPE } from "@/lib/pulls/pull-types";
import { lostSummary } from "@/lib/workflow/lost-reasons";
import { RelativeTime } from "@/components/ui/relative-time";
import type { PullMonitoring } from "@/lib/monitoring/pull-monitoring";
import type { PullWorkflow } from "@/lib/pulls/queries";
import type { Pull } from "@/lib/service/schemas";
import { StatusBadge } from "../status-badge";
import { EmailLink, PhoneLink } from "./contact-links";
import { HouseholdLines } from "./household-lines";
import { Instant } from "./dates";
import { FUNNEL_STAGES, POLICY_CHECK_STATUSES, PULL_STATUSES, PULL_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";

// The household first: who the account holder is and how to reach them, the agency's stage and
// owner, what the household pays a year, and its policies, vehicles, drivers and homes a line
// each. Identifiers and the service's own bookkeeping are folded under "Technical details".

type Labelled = { value: string; labels: string[]; extension?: string | null };

/** The same number often fills several fields: list it once with every label it has. */
function byValue(entries: Array<{ label: string; value: string | null; extension?: string | null }>): Labelled[] {
  const list: Labelled[] = [];
  for (const entry of entries) {
    if (!entry.value || !entry.value.trim()) continue;
    const existing = list.find((item) => item.value === entry.value);
    if (existing) existing.labels.push(entry.label);
    else list.push({ value: entry.value, labels: [entry.label], extension: entry.extension });
  }
  return list;
}

function Phones({ pull }: { pull: Pull }) {
  const phones = byValue([
    { label: "preferred", value: pull.phone },
    { label: "mobile", value: pull.mobile_phone },
    { label: "home", value: pull.home_phone },
    { label: "work", value: pull.work_phone, extension: pull.work_phone_extension },
  ]);
  if (phones.length === 0) return <>{DASH}</>;
  return (
    <ul className="space-y-0.5">
      {phones.map((phone) => (
        <li key={phone.value}>
          <PhoneLink phone={phone.value} extension={phone.extension} />{" "}
          <span className="text-xs text-slate-600">({phone.labels.join(", ")})</span>
        </li>
      ))}
    </ul>
  );
}

function Emails({ pull }: { pull: Pull }) {
  const emails = byValue([
    { label: "account", value: pull.account_email },
    { label: "given at sign-in", value: pull.email },
  ]);
  if (emails.length === 0) return <>{DASH}</>;
  return (
    <ul className="space-y-0.5">
      {emails.map((email) => (
        <li key={email.value}>
          <EmailLink email={email.value} /> <span className="text-xs text-slate-600">({email.labels.join(", ")})</span>
        </li>
      ))}
    </ul>
  );
}

function MonitoringState({ monitoring }: { monitoring: PullMonitoring | null }) {
  if (!monitoring) return <>Not monitored</>;
  return (
    <span className="flex flex-wrap items-center gap-1.5" data-testid="monitoring">
      {humanize(monitoring.status ?? "Unknown")}
      {monitoring.interval ? (
        <span className="text-xs text-slate-600">every {formatInterval(monitoring.interval)}</span>
      ) : null}
      {monitoring.startedOutside ? <span className="text-xs text-slate-600">(started outside Coverdesk)</span> : null}
      {monitoring.reconnectNeeded ? (
        <Badge tone="warning">
          Reconnect needed{monitoring.reconnectAuthStatus ? `: ${humanize(monitoring.reconnectAuthStatus)}` : ""}
        </Badge>
      ) : null}
      {monitoring.status === "ACTIVE" && monitoring.nextPullDate ? (
        <span className="block w-full text-xs text-slate-600" data-testid="next-refresh">
          Next refresh <RelativeTime iso={monitoring.nextPullDate.toISOString()} />: {monitoring.nextRefreshWhy}
        </span>
      ) : null}
    </span>
  );
}

function Assignee({ pull }: { pull: Pull }) {
  const assignee = pull.funnel?.assignee;
  if (!assignee) return <>Unassigned</>;
  const name = fullName(assignee);
  return (
    <span>
      {name !== DASH ? name : text(assignee.email)}
      {name !== DASH && assignee.email ? <span className="block text-xs text-slate-600">{assignee.email}</span> : null}
    </span>
  );
}

function AgencyStage({ workflow }: { workflow: PullWorkflow }) {
  return (
    <span data-testid="agency-stage">
      {humanize(workflow.stage)}
      {workflow.stage === "WON" && workflow.wonPremiumCents !== null ? (
        <span className="block text-xs text-slate-600">{formatCents(workflow.wonPremiumCents)} premium won</span>
      ) : null}
      {workflow.stage === "LOST" ? (
        <span className="block text-xs break-words text-slate-600">{lostSummary(workflow)}</span>
      ) : null}
    </span>
  );
}

function metaDataText(meta: Pull["meta_data"]): string {
  if (meta === null || meta === undefined) return DASH;
  if (typeof meta === "string") return meta.trim() ? meta : DASH;
  return Object.keys(meta).length > 0 ? JSON.stringify(meta) : DASH;
}

export function PullHeader({
  pull,
  monitoring,
  workflow,
  accountKey = null,
  policyCheckStatus = pull.policy_check_status,
}: {
  /** The account the pull was joined to, when its payload names none (lib/pulls/account-key.ts). */
  accountKey?: string | null;
  /** The newest policy check's status, when it was run again after the pull (lib/policy-check/runs.ts). */
  policyCheckStatus?: string | null;
  pull: Pull;
  monitoring: PullMonitoring | null;
  workflow: PullWorkflow;
}) {
  const stage = pull.funnel?.stage ?? null;
  const wonPremium = pull.funnel?.premium;
  const household = householdOf(pull);
  return (
    <Card as="div" className="space-y-4 sm:p-5" data-testid="pull-header">
      <PageHeader
        title={headingOf(pull)}
        description={`${pull.insurance_provider_friendly_name ?? pull.insurance_provider_name ?? "Unknown provider"} account${household.address ? ` · ${formatAddress(household.address)}` : ""}`}
      >
        <div className="flex flex-wrap gap-2">
          <StatusBadge status={pull.status ?? "UNKNOWN"} />
          {pull.is_archived ? <Badge>Archived at the service</Badge> : null}
          {pull.type && pull.type !== READING_TYPE ? <Badge tone="info">{pullTypeLabel(pull.type)}</Badge> : null}
        </div>
      </PageHeader>
      <FieldList
        columns={4}
        fields={[
          { label: "Email", value: <Emails pull={pull} /> },
          { label: "Phone", value: <Phones pull={pull} /> },
          { label: "Stage", value: <AgencyStage workflow={workflow} /> },
          {
            label: "Assigned to",
            value: <span data-testid="agency-assignee">{workflow.assigneeName ?? "Unassigned"}</span>,
          },
          {
            label: "Premium per year",
            value: (
              <span data-testid="household-premium">
                <span className="text-lg font-semibold">{formatCents(household.totalAnnualCents)}</span>
                {household.unpricedInForce > 0 ? (
                  <span className="block text-xs text-slate-600">
                    {household.unpricedInForce === 1
                      ? "1 policy states no premium"
                      : `${household.unpricedInForce} policies state no premium`}
                  </span>
                ) : null}
              </span>
            ),
          },
          { label: "Linked", value: <Instant value={pull.created_at} /> },
          { label: "Monitoring", value: <MonitoringState monitoring={monitoring} /> },
          { label: "Policy check", value: enumLabel(POLICY_CHECK_STATUSES, policyCheckStatus) },
        ]}
      />
      <HouseholdLines household={household} />
      <details className="rounded-md border border-slate-200 px-3 py-2" data-testid="technical-details">
        <summary className="cursor-pointer text-sm font-medium text-slate-700">Technical details</summary>
        <div className="mt-3">
          <FieldList
            columns={4}
            fields={[
              { label: "Pull ID", value: <span className="font-mono text-xs break-all">{pull.pull_id}</span> },
              { label: "Account identifier", value: text(pull.account_identifier ?? accountKey) },
              { label: "Status", value: enumLabel(PULL_STATUSES, pull.status) },
              { label: "Pull type", value: enumLabel(PULL_TYPES, pull.type) },
              { label: "Link", value: text(pull.public_alias) },
              // The service's funnel is its own dashboard's, read-only: shown only when it has one.
              ...(pull.funnel
                ? [
                    { label: "Service stage", value: stage ? enumLabel(FUNNEL_STAGES, stage) : DASH },
                    { label: "Service assignee", value: <Assignee pull={pull} /> },
                    ...(wonPremium !== null && wonPremium !== undefined
                      ? [{ label: "Service premium won", value: formatCents(Math.round(wonPremium * 100)) }]
                      : []),
                  ]
                : []),
              {
                label: "Skipped product types",
                value:
                  pull.skipped_product_types.length > 0 ? pull.skipped_product_types.map(humanize).join(", ") : "None",
              },
              { label: "Two-factor prompt", value: yesNo(pull.encountered_mfa) },
              { label: "Source data", value: <span className="break-all">{metaDataText(pull.meta_data)}</span> },
            ]}
          />
        </div>
      </details>
    </Card>
  );
}

/** The account holder's name; without one, the email the list shows in its place. */
function headingOf(pull: {
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  account_email: string | null;
  email: string | null;
}): string {
  const name = fullName(pull);
  return name !== DASH ? name : (pull.account_email ?? pull.email ?? "Unnamed account");
}
