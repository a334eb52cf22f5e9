import { formatCents, humanize } from "@/lib/format";

// One audit entry in plain words, for the pull's history and the admin's audit page.

type Entry = { action: string; actorName: string | null; details: unknown };

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown) => (typeof value === "string" ? value : null);
const num = (value: unknown) => (typeof value === "number" ? value : null);

export function auditSentence(entry: Entry): string {
  const who = entry.actorName ?? "Someone";
  const d = record(entry.details);
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
      const reason = str(d.lostReason);
      const base = `${who} moved the pull from ${humanize(str(d.from))} to ${humanize(to)}`;
      if (to === "WON" && premium !== null) return `${base} with a premium of ${formatCents(premium)}`;
      if (to === "LOST" && reason) return `${base}: ${reason}`;
      return base;
    }
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
    case "SIGNED_IN":
      return `${who} signed in${str(d.address) ? ` from ${str(d.address)}` : ""}`;
    case "SIGN_IN_FAILED": {
      const account = str(d.email) ? `as ${str(d.email)}` : "with an email that matches no account";
      const why = d.reason === "inactive" ? " (the account is deactivated)" : "";
      return `Failed sign-in ${account}${str(d.address) ? ` from ${str(d.address)}` : ""}${why}`;
    }
    case "SIGNED_OUT":
      return `${who} signed out`;
    case "ASSIGNMENT_SETTINGS_CHANGED":
      return `${who} set automatic assignment to ${humanize(str(d.mode))}`;
    case "ALERT_RULES_CHANGED":
      return `${who} changed the alert rules`;
    case "DIGEST_SENT":
      return `${who} sent the alert digests now (${Number(d.mails) || 0} mails)`;
    default:
      return `${who}: ${humanize(entry.action)}`;
  }
}
