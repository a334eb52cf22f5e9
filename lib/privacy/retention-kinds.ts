// The kinds of record the retention schedule covers, named once: what each is, when its clock
// starts, its default period and the floor and ceiling an admin may set. Plain data with no
// imports, so the admin page's form shows the same words and bounds the command checks.
//
// Why these defaults (docs/security.md, "Retention and disposal", says it at length): the FTC
// Safeguards Rule (16 CFR 314.4(c)(6)) asks that customer information be disposed of no later
// than two years after it was last used for the customer, unless it is still needed for the
// business or the law; prospects and lost deals get those two years. Won clients are needed as
// long as they are clients, and a producer's records of a sale must outlive the policy (state
// record-keeping rules, commonly three to five years). The audit trail answers the incident
// report and shows who received driver data (the DPPA's five years), so it keeps five years at
// least; the database itself refuses to delete younger rows (migration 0036).

export const RETENTION_KINDS = ["PROSPECTS", "LOST_DEALS", "WON_CLIENTS", "INBOX_BODIES", "AUDIT_TRAIL"] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** The kinds whose disposal removes accounts (all their pulls), rather than rows of a table. */
export const ACCOUNT_KINDS = ["PROSPECTS", "LOST_DEALS", "WON_CLIENTS"] as const satisfies readonly RetentionKind[];
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export type RetentionKindInfo = {
  label: string;
  /** When the clock starts, in words. */
  clock: string;
  /** What disposal does, in words. */
  disposal: string;
  defaultMonths: number;
  minMonths: number;
  maxMonths: number;
  /** Why the floor is where it is, when the law sets one. */
  floorWhy: string | null;
  /** Periods past this (or Keep) are shown with a warning: longer than the FTC's two years. */
  warnAboveMonths: number | null;
};

/** The audit trail's floor: also written into the database's own check (migration 0036). */
export const AUDIT_TRAIL_MIN_MONTHS = 60;

export const RETENTION_KIND_INFO: Record<RetentionKind, RetentionKindInfo> = {
  PROSPECTS: {
    label: "Never-won prospects",
    clock: "after the account's last activity (a new pull, an assignment, a stage change, a first look)",
    disposal: "the account and every pull of it are removed",
    defaultMonths: 24,
    minMonths: 1,
    maxMonths: 240,
    floorWhy: null,
    warnAboveMonths: 24,
  },
  LOST_DEALS: {
    label: "Lost deals",
    clock:
      "after their X-date (the next policy expiry its pulls showed, the latest of them, at most a year past its last activity), or their last activity when later",
    disposal: "the account and every pull of it are removed",
    defaultMonths: 24,
    minMonths: 1,
    maxMonths: 240,
    floorWhy: null,
    warnAboveMonths: 24,
  },
  WON_CLIENTS: {
    label: "Won clients",
    clock:
      "after the client stops being active: not monitored, the next policy expiry its pulls showed has passed (at most a year past its last activity), no activity since",
    disposal: "the account and every pull of it are removed",
    defaultMonths: 60,
    minMonths: 36,
    maxMonths: 240,
    floorWhy:
      "A producer's records of a sale must outlive the policy: state record-keeping rules commonly ask three to five years.",
    warnAboveMonths: null,
  },
  INBOX_BODIES: {
    label: "Webhook inbox bodies",
    clock: "after the event was received, once it was processed (failed events keep theirs, to be retried)",
    disposal: "the body is blanked; the event's row and status stay",
    defaultMonths: 1,
    minMonths: 1,
    maxMonths: 120,
    floorWhy: null,
    warnAboveMonths: null,
  },
  AUDIT_TRAIL: {
    label: "Audit trail",
    clock: "after the entry was written",
    disposal: "the entry is deleted (held accounts' entries stay)",
    defaultMonths: 84,
    minMonths: AUDIT_TRAIL_MIN_MONTHS,
    maxMonths: 240,
    floorWhy:
      "The incident report reads who saw what from the trail, and the DPPA asks five years of records of who received driver data: never less than five years.",
    warnAboveMonths: null,
  },
};

/** Months, or null: keep (never disposed of). */
export type RetentionSchedule = Record<RetentionKind, number | null>;

export const DEFAULT_RETENTION_SCHEDULE: RetentionSchedule = Object.fromEntries(
  RETENTION_KINDS.map((kind) => [kind, RETENTION_KIND_INFO[kind].defaultMonths]),
) as RetentionSchedule;
