import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { users, type Role } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";

// Demo logins for development and the end-to-end tests. The shared password is refused in
// production unless demo mode is switched on explicitly (see lib/auth/credentials.ts).
export const DEMO_PASSWORD = "coverdesk-demo";

export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: "admin@example.com", name: "Avery Admin", role: "ADMIN" },
  { email: "manager@example.com", name: "Morgan Manager", role: "MANAGER" },
  { email: "agent@example.com", name: "Alex Agent", role: "AGENT" },
];

/**
 * The demo agency's other people, created by its history (lib/demo) with the same password; one
 * of them leaves the agency (deactivated) partway through, one manages the Riverside office. Production refuses them too.
 */
export const DEMO_AGENTS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: "jordan@example.com", name: "Jordan Lee", role: "AGENT" },
  { email: "priya@example.com", name: "Priya Shah", role: "AGENT" },
  { email: "sam@example.com", name: "Sam Ortiz", role: "AGENT" },
  { email: "taylor@example.com", name: "Taylor Brooks", role: "AGENT" },
  /** The Riverside office's manager (lib/demo/offices.ts): that office's pulls, people and figures only. */
  { email: "riley@example.com", name: "Riley Reyes", role: "MANAGER" },
];

/** Creates the demo users that are missing; leaves existing ones (and their passwords) alone. */
export async function ensureDemoUsers(db: Db): Promise<number> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const inserted = await db
    .insert(users)
    .values(DEMO_USERS.map((u) => ({ ...u, passwordHash })))
    .onConflictDoNothing() // the unique index is on lower(email): any conflict means "exists"
    .returning({ id: users.id });
  return inserted.length;
}

/** The demo logins (and the demo agency's agents) still active in this database; production refuses to start while any is. */
export async function listActiveDemoUsers(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        inArray(
          sql`lower(${users.email})`,
          [...DEMO_USERS, ...DEMO_AGENTS].map((u) => u.email),
        ),
        eq(users.isActive, true),
      ),
    );
  return rows.map((row) => row.email);
}
