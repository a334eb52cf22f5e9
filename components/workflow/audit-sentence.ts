import { formatCents, humanize } from "@/lib/format";
import { lostSummary } from "@/lib/workflow/lost-reasons";
import { statusWords as policyCheckStatusWords } from "@/lib/policy-check/words";
import { purposeWords } from "@/lib/enrichment/purposes";
import { isEnrichmentKind, KIND_WORDS } from "@/lib/enrichment/words";

// One audit entry in plain words, for the pull's history and the admin's audit page.

type Entry = { action: string; actorName: string | null; details: unknown };

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown) => (typeof value === "string" ? value : null);

/** Where a client's answer on their confirm page came from (recorded since answers carry it). */
function answeredFrom(d: Record<string, unknown>): string {
  const address = str(d.address);
  if (!address) return "";
  const browser = str(d.userAgent);
  return ` (from ${address}${browser ? `, ${browser.length > 80 ? `${browser.slice(0, 79)}…` : browser}` : ""})`;
}
const num = (value: unknown) => (typeof value === "number" ? value : null);

export function auditSentence(entry: Entry): string {
  const who = entry.actorName ?? "Someone";
  const d = record(entry.details);
  // An erased consumer's entries keep who, what and when; what they said of the person is gone.
  if (d.redacted === true) return `${who}: ${humanize(entry.action)} (about a consumer since erased)`;
  switch (entry.action) {
    case "PULL_ASSIGNED": {
      const to = str(d.toName) ?? "someone";
      const reason = str(d.reason);
      if (reason === "deactivation") return `${who} handed the pull to ${to} when deactivating its previous owner`;
      return reason ? `Assigned to ${to} automatically (${reason})` : `${who} assigned the pull to ${to}`;
    }
    case "PULL_CARRIED_OVER": {
      const to = str(d.toName);
      const stage = str(d.stage);
      const premium = num(d.wonPremiumCents);
      const owner = to ? `stays with ${to}` : "stays unassigned";
      const standing =
        stage === "WON" && premium !== null ? `won with ${formatCents(premium)}` : humanize(stage).toLowerCase();
      return `Refresh of the account: ${owner}, ${standing}, as on its earlier pull`;
    }
    case "PULL_UNASSIGNED":
      return `${who} returned the pull to the queue`;
    case "STAGE_CHANGED": {
      const to = str(d.to) ?? "";
      const premium = num(d.wonPremiumCents);
      const base = `${who} moved the pull from ${humanize(str(d.from))} to ${humanize(to)}`;
      if (to === "WON" && premium !== null) return `${base} with a premium of ${formatCents(premium)}`;
      // Why, as it was recorded then: the pull itself forgets it once the deal comes back.
      const why =
        to === "LOST"
          ? lostSummary({
              lostCategory: str(d.lostCategory),
              lostToCarrier: str(d.lostToCarrier),
              lostToPremiumCents: num(d.lostToPremiumCents),
              lostReason: str(d.lostReason),
            })
          : null;
      return why ? `${base}: ${why}` : base;
    }
    case "PULL_ARCHIVED":
      return `${who} ${d.archived === true ? "archived" : "restored"} the linked account`;
    case "PULL_VIEWED":
      return `${who} opened the account's page`;
    case "DOCUMENT_DOWNLOADED":
      return `${who} downloaded ${str(d.title) ?? "a document"}`;
    case "MONITORING_CHANGED":
      return `${who} ${str(d.change) ?? "changed monitoring"}`;
    case "USER_CREATED":
      return `${who} created the user ${str(d.name) ?? ""} (${humanize(str(d.role))})`;
    case "USER_CHANGED":
      return `${who} changed a user's name or role`;
    case "USER_DEACTIVATED":
      return `${who} deactivated a user (${num(d.handedOver) ?? 0} open pulls handed over)`;
    case "PASSWORD_RESET":
      return `${who} reset a user's password`;
    case "OFFICE_CREATED":
      return `${who} created the office ${str(d.name) ?? ""}`;
    case "OFFICE_RENAMED":
      return `${who} renamed the office ${str(d.from) ?? ""} to ${str(d.name) ?? ""}`;
    case "OFFICE_DELETED":
      return `${who} deleted the office ${str(d.name) ?? ""}`;
    case "USER_OFFICE_CHANGED":
      return `${who} moved a user from ${str(d.fromName) ?? "no office"} to ${str(d.toName) ?? "no office"}`;
    case "SIGNED_IN": {
      const factor =
        d.secondFactor === "recovery-code"
          ? ` with a recovery code (${num(d.recoveryCodesLeft) ?? 0} left)`
          : d.secondFactor === "totp"
            ? " with an authenticator code"
            : "";
      return `${who} signed in${str(d.address) ? ` from ${str(d.address)}` : ""}${factor}`;
    }
    case "SIGN_IN_FAILED": {
      const account = str(d.email) ? `as ${str(d.email)}` : "with an email that matches no account";
      const why =
        d.reason === "inactive"
          ? " (the account is deactivated)"
          : d.reason === "code"
            ? " (right password, wrong or used authenticator code)"
            : "";
      return `Failed sign-in ${account}${str(d.address) ? ` from ${str(d.address)}` : ""}${why}`;
    }
    case "SIGNED_OUT":
      return `${who} signed out`;
    case "SECOND_FACTOR_STARTED":
      return `${who} began setting up an authenticator app`;
    case "SECOND_FACTOR_CONFIRMED":
      return `${who} turned on sign-in with an authenticator app (ten recovery codes made)`;
    case "SECOND_FACTOR_REMOVED":
      return `${who} turned off sign-in with an authenticator app`;
    case "ASSIGNMENT_SETTINGS_CHANGED":
      return `${who} set automatic assignment to ${humanize(str(d.mode))}`;
    case "ALERT_RULES_CHANGED":
      return `${who} changed the alert rules`;
    case "AGENCY_RULES_CHANGED":
      return `${who} changed the agency's rules`;
    case "DEAL_RETURNED": {
      const kind = d.kind === "WIN_BACK" ? "The client's refresh shows the policy gone" : "The X-date nears";
      const to = str(d.toName);
      const from = str(d.fromName);
      const holder = to ? `for ${to}` : from ? `in the queue (${from} has left)` : "in the queue";
      return `${kind}: back to Working ${holder}. ${str(d.headline) ?? ""}`.trim();
    }
    case "SPEED_TO_LEAD": {
      const late = `Nobody touched the pull within ${str(d.within) ?? "the agency's time"}`;
      if (d.action === "REASSIGN")
        return `${late}: handed from ${str(d.fromName) ?? "the queue"} to ${str(d.toName) ?? "another agent"}`;
      return `${late}: raised to the managers${d.nobodyElse ? " (no one else to hand it to)" : ""}`;
    }
    case "SERVICING_REQUESTED":
      return `${who} asked the carrier, through the service, to ${str(d.change) ?? "change the policy"}`;
    case "SERVICING_CONFIRMED":
      return `The client confirmed on their page: ${str(d.change) ?? "the servicing request"}${answeredFrom(d)}`;
    case "SERVICING_DECLINED":
      return `The client declined on their page: ${str(d.change) ?? "the servicing request"}${answeredFrom(d)}`;
    case "FINDING_DECIDED": {
      const title = str(d.title) ?? "a coverage finding";
      const note = str(d.note);
      const verb =
        d.decision === "DECLINED"
          ? "recorded that the client declined"
          : d.decision === "ACCEPTED"
            ? "recorded that the client accepted"
            : "marked not applicable";
      return `${who} ${verb} “${title}”${note ? `: ${note}` : ""}`;
    }
    case "REVIEW_RULES_CHANGED":
      return `${who} changed the coverage review's rules`;
    case "CLIENT_SUMMARY_MADE": {
      const findings = num(d.findings) ?? 0;
      return `${who} made the client summary PDF (${findings} ${findings === 1 ? "finding" : "findings"}, ${num(d.declined) ?? 0} declined)`;
    }
    case "HANDOFF_EXPORTED": {
      const file = d.kind === "ezlynx-home" ? "EZLynx home file" : "EZLynx auto file";
      const leftOut = num(d.leftOut) ?? 0;
      return `${who} downloaded the ${file} for ${str(d.recipient) ?? "EZLynx import"}${leftOut > 0 ? ` (${leftOut} ${leftOut === 1 ? "item" : "items"} left out)` : ""}`;
    }
    case "HANDOFF_SENT": {
      const verb = d.action === "updated" ? "updated the lead in" : "sent the pull as a new lead to";
      const again = d.recreated === true ? " (the earlier lead was gone there, so a new one was made)" : "";
      return `${who} ${verb} ${str(d.recipient) ?? "AgencyZoom"}${str(d.externalId) ? ` (lead ${str(d.externalId)})` : ""}${again}`;
    }
    case "HANDOFF_FAILED":
      return `${who} tried to send the pull to AgencyZoom: ${str(d.message) ?? "it failed"}`;
    case "AGENCYZOOM_SETTINGS_CHANGED":
      return `${who} changed the AgencyZoom settings`;
    case "ENRICHMENT_REQUESTED": {
      const what = isEnrichmentKind(d.kind) ? `looked up the ${KIND_WORDS[d.kind]}` : "made a paid look-up";
      const about = str(d.subject) ? ` for ${str(d.subject)}` : "";
      const why = str(d.purpose) ? ` (permissible purpose: ${purposeWords(str(d.purpose))})` : "";
      const outcome =
        d.status === "ANSWERED"
          ? "answered"
          : d.status === "NO_DATA"
            ? "no record found"
            : `failed${str(d.error) ? `, ${str(d.error)}` : ""}`;
      return `${who} ${what}${about}${why}: ${outcome}`;
    }
    case "POLICY_CHECK_RUN":
      return `${who} ran the service's policy check again: ${policyCheckStatusWords(str(d.status))}`;
    case "POLICY_CHECK_RULES_CHANGED":
      return `${who} changed the team's policy-check rules at the service`;
    case "RETENTION_SCHEDULE_CHANGED":
      return `${who} changed the retention schedule`;
    case "LEGAL_HOLD_PLACED":
    case "LEGAL_HOLD_LIFTED": {
      const verb = entry.action === "LEGAL_HOLD_PLACED" ? "placed" : "lifted";
      const what = d.scope === "ACCOUNT" ? "the whole account" : "this pull";
      // The reason is left out of the details shown to anyone but admins (lib/loaders/pull-page.ts).
      return `${who} ${verb} a legal hold on ${what}${str(d.reason) ? `: ${str(d.reason)}` : ""}`;
    }
    case "RETENTION_DISPOSAL_RUN": {
      const accounts = record(d.accounts);
      const n = (value: unknown) => num(value) ?? 0;
      return `Disposal under the retention schedule: ${n(accounts.PROSPECTS)} prospects, ${n(accounts.LOST_DEALS)} lost deals and ${n(accounts.WON_CLIENTS)} won clients disposed of; ${n(d.inboxBodies)} inbox bodies blanked; ${n(d.auditRows)} audit entries deleted`;
    }
    case "DIGEST_SENT":
      return `${who} sent the alert digests now (${Number(d.mails) || 0} mails)`;
    case "CONSUMER_SEARCHED": {
      const fields = Array.isArray(d.fields) ? d.fields.filter((f) => typeof f === "string").join(", ") : "";
      return `${who} searched the consumer request desk${fields ? ` by ${fields}` : ""} (${num(d.found) ?? 0} pulls found)`;
    }
    case "PRIVACY_REQUEST_OPENED":
      return `${who} opened a consumer's ${d.kind === "ERASURE" ? "erasure" : "access"} request (received ${str(d.receivedOn) ?? "?"}, due ${str(d.dueOn) ?? "?"})`;
    case "CONSUMER_DATA_EXPORTED":
      return `${who} exported a consumer's data as ${str(d.format)?.toUpperCase() ?? "a file"} for ${str(d.recipient) ?? "the consumer"} (${num(d.pulls) ?? 0} pulls)`;
    case "CONSUMER_ERASED": {
      const removed = record(d.removed);
      return `${who} erased a consumer on their request: ${num(removed.pulls) ?? 0} pulls and everything of them`;
    }
    case "PRIVACY_SERVICE_TOLD":
      return `${who} recorded that the service was asked to delete its copy of an erased consumer`;
    default:
      return `${who}: ${humanize(entry.action)}`;
  }
}
