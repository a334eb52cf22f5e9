import type { Role } from "@/db/schema";

// The one permission table. Every page, route handler and server action asks `can()` on the
// server; the navigation only hides what the table would refuse anyway.
const PERMISSIONS = {
  "pulls:view": ["ADMIN", "MANAGER", "AGENT"],
  "events:view": ["ADMIN"],
  "events:retry": ["ADMIN"],
  "sync:run": ["ADMIN"],
  /** What the service sent that did not fit its spec: for whoever looks after the integration. */
  "pulls:view-problems": ["ADMIN"],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

export function can(user: { role: Role } | null | undefined, action: Action): boolean {
  if (!user) return false;
  return (PERMISSIONS[action] as readonly Role[]).includes(user.role);
}
