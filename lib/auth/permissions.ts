import type { Role } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";

// The one permission table. Every page, route handler and server action asks it on the
// server; the navigation only hides what the table would refuse anyway.
//
// For actions on a pull, each role has a scope: "any" pull, its "own" pulls (assigned to the
// user), "unassigned" ones, or "own-or-unassigned". A role without an entry may not act.
//
// Offices narrow the scopes of the roles in OFFICE_SCOPED when the user has an office: "any"
// becomes the pulls of their office (and the agency-wide queue, to route from), "unassigned"
// the queue of their office and the agency-wide queue. A user with no office, and every admin,
// keeps the scopes as written.

export type PullScope = "any" | "own" | "unassigned" | "own-or-unassigned";

const PERMISSIONS = {
  "pulls:view": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Assign, reassign or unassign, to anyone. */
  "pulls:assign": { ADMIN: "any", MANAGER: "any" },
  /** Take an unassigned pull for oneself. */
  "pulls:claim": { AGENT: "unassigned", MANAGER: "unassigned", ADMIN: "unassigned" },
  /** Stage WORKING/WON/LOST and the won premium. */
  "pulls:set-stage": { ADMIN: "any", MANAGER: "any", AGENT: "own" },
  /** Archive or restore a linked account (it leaves the lists for everyone; the service is told too). */
  "pulls:archive": { ADMIN: "any", MANAGER: "any" },
  "documents:download": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Download a pull's EZLynx applicant files (auto, home) for the agency's rating system; each one is audited. */
  "handoffs:export": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Send a pull to the agency's management system (AgencyZoom) as a lead, or send it again to update that lead; each send is audited. */
  "handoffs:send": { ADMIN: "any", MANAGER: "any", AGENT: "own" },
  /** What AgencyZoom leads assume (pipeline, stage, lead source, country) and who each user is there (/admin/agencyzoom). */
  "agencyzoom:manage": { ADMIN: "any" },
  "monitoring:manage": { ADMIN: "any", MANAGER: "any" },
  /** What the service sent that did not fit its spec: for whoever looks after the integration. */
  "pulls:view-problems": { ADMIN: "any" },
  "reports:view": { ADMIN: "any", MANAGER: "any" },
  "users:manage": { ADMIN: "any" },
  "settings:manage": { ADMIN: "any" },
  "audit:view": { ADMIN: "any" },
  /** The incident-scope report (who saw which consumers, by state) and the DPPA redisclosure log, with their CSV. */
  "incident:view": { ADMIN: "any" },
  "events:view": { ADMIN: "any" },
  "events:retry": { ADMIN: "any" },
  "sync:run": { ADMIN: "any" },
  /** The service's health, the team's links and webhook registrations; registering our address. */
  "service:manage": { ADMIN: "any" },
  /** The X-dates page and its CSV: the policies coming up for renewal, scoped like the pulls. */
  "xdates:view": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** The cross-sell list of households and its CSV: gaps across the book, scoped like the pulls. */
  "cross-sell:view": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Ask the carrier, through the service, to change a WON client's policy (mortgagees, vehicles); the consumer confirms. */
  "servicing:request": { ADMIN: "any", MANAGER: "any", AGENT: "own" },
  /** One's own calendar feed of X-dates: show its address, renew it, turn it off. */
  "calendar-feed:manage": { ADMIN: "own", MANAGER: "own", AGENT: "own" },
  /** The alert inbox: one's own alerts and the queue's (unassigned accounts); mark done, snooze. */
  "alerts:view": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Everyone's alerts, not only one's own and the queue's. */
  "alerts:view-all": { ADMIN: "any", MANAGER: "any" },
  /** Record what the client decided about a coverage review finding (the E&O record), on the pulls one works. */
  "findings:decide": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Ask the service's paid look-ups (property data, driver licence, driving record) for a pull one works. */
  "enrichment:request": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** Run the service's policy check again on a pull (each run is audited). */
  "policy-check:run": { ADMIN: "any", MANAGER: "any", AGENT: "own-or-unassigned" },
  /** The agency's rules (alerts, digest, renewal lead time, refresh budget, speed to lead): change them, send today's digests now, read the dev outbox. */
  "rules:manage": { ADMIN: "any" },
  /** The scheduled jobs and their last runs (/admin/jobs); run one now. */
  "jobs:manage": { ADMIN: "any" },
  /** The retention schedule and its dry run (/admin/retention); legal holds on pulls and accounts, placed and lifted. */
  "retention:manage": { ADMIN: "any" },
  /** The consumer request desk (/admin/privacy): find a consumer, export everything held on them, erase them. */
  "privacy:manage": { ADMIN: "any" },
  /** Keys of the public API (/admin/api-keys): make one (shown once) or revoke it. */
  "api-keys:manage": { ADMIN: "any" },
  /** Outgoing webhooks (/admin/webhooks): the endpoints, their recent deliveries, send one again, delete an endpoint. */
  "webhooks:manage": { ADMIN: "any" },
  /** The agency's offices (/admin/offices): create, rename, delete an empty one; set a user's office. */
  "offices:manage": { ADMIN: "any" },
} as const satisfies Record<string, Partial<Record<Role, PullScope>>>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

/** The roles an office narrows (see the top of this file); an admin sees the whole agency. */
const OFFICE_SCOPED: ReadonlySet<Role> = new Set<Role>(["MANAGER", "AGENT"]);

/** Whoever asks: only their role counts, their id for a pull's scope (own, unassigned), and their office. */
type Asking = (Pick<Actor, "role"> & Partial<Pick<Actor, "id" | "officeId">>) | null | undefined;

/** The office that narrows this user's pull scopes, or null when none does. */
export function scopingOffice(user: Asking): string | null {
  return user && OFFICE_SCOPED.has(user.role) ? (user.officeId ?? null) : null;
}

function scopeOf(user: Asking, action: Action): PullScope | null {
  if (!user) return null;
  const scopes: Partial<Record<Role, PullScope>> = PERMISSIONS[action];
  return scopes[user.role] ?? null;
}

/** May the user take this action at all (on some pull, for pull actions)? For pages and menus. */
export function can(user: Asking, action: Action): boolean {
  return scopeOf(user, action) !== null;
}

/**
 * What the rule needs to know of a pull: who has it, and whether another pull of the same
 * account is assigned (lib/pulls/visibility.ts `accountHeld`). An unassigned refresh or
 * reconnect of an account someone holds is not "unassigned" new business: no agent sees it in
 * the queue or claims it; managers and admins (scope "any") still do.
 */
export type PullAccess = {
  assigneeId: string | null;
  accountHeld: boolean;
  /** The pull's office (null: agency-wide). */
  officeId: string | null;
};

/** May the user take this action on this pull, given who it and its account are assigned to? */
export function canOnPull(user: Asking, action: Action, pull: PullAccess): boolean {
  const scope = scopeOf(user, action);
  if (!scope || !user) return false;
  const own = user.id !== undefined && pull.assigneeId === user.id;
  const office = scopingOffice(user);
  const pullOffice = pull.officeId;
  // The queue a user of an office may take from: their office's, and the agency-wide one.
  const inReach = office === null || pullOffice === null || pullOffice === office;
  const unassigned = pull.assigneeId === null && !pull.accountHeld && inReach;
  switch (scope) {
    case "any":
      return office === null || pullOffice === office || (pullOffice === null && pull.assigneeId === null);
    case "own":
      return own;
    case "unassigned":
      return unassigned;
    case "own-or-unassigned":
      return own || unassigned;
  }
}

/** Who is looking, for queries (lib/pulls/visibility.ts `ListViewer`). */
export type ViewScope =
  | { kind: "all" }
  /** A manager of an office: its pulls, and the agency-wide queue. */
  | { kind: "office"; officeId: string }
  /** Their own pulls, and the unassigned queue of their office (when they have one) and the agency's. */
  | { kind: "own-or-unassigned"; userId: string; officeId?: string | null };

/**
 * The pulls a user may see, for queries: everything, an office's, or theirs plus the unassigned
 * queue (lib/pulls/visibility.ts). `action` names another list scoped like the pulls (X-dates).
 */
export function viewScope(
  user: Pick<Actor, "id" | "role"> & Partial<Pick<Actor, "officeId">>,
  action: Action = "pulls:view",
): ViewScope {
  const office = scopingOffice(user);
  if (scopeOf(user, action) !== "any") return { kind: "own-or-unassigned", userId: user.id, officeId: office };
  return office === null ? { kind: "all" } : { kind: "office", officeId: office };
}
