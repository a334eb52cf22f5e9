import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { offices, pulls, users } from "@/db/schema";
import { DEMO_AGENTS, DEMO_PASSWORD } from "@/lib/auth/demo-users";
import { hashPassword } from "@/lib/auth/password";

// The demo agency's two offices. The first logins stay agency-wide, so they show what they
// always showed; the other agents are spread over the offices, and Riverside has a manager of its
// own (riley@example.com) who sees that office's pulls, people and figures only.

export const DEMO_OFFICES: Record<string, string> = {
  "jordan@example.com": "Main Street",
  "priya@example.com": "Main Street",
  "riley@example.com": "Riverside",
  "sam@example.com": "Riverside",
  "taylor@example.com": "Riverside",
};

/**
 * Creates the offices and puts the demo people without one in theirs, with the pulls assigned to
 * them (as moving a user does, lib/users/offices.ts). Leaves anyone an admin already placed alone.
 */
export async function placeDemoOffices(db: Db): Promise<void> {
  // Riverside's manager works no step of the history: made here, with the demo password.
  const riley = DEMO_AGENTS.find((u) => u.email === "riley@example.com");
  if (riley)
    await db
      .insert(users)
      .values({ ...riley, passwordHash: await hashPassword(DEMO_PASSWORD) })
      .onConflictDoNothing();
  await db.transaction(async (tx) => {
    const names = [...new Set(Object.values(DEMO_OFFICES))];
    await tx
      .insert(offices)
      .values(names.map((name) => ({ name })))
      .onConflictDoNothing();
    const rows = await tx
      .select({ id: offices.id, name: offices.name })
      .from(offices)
      .where(
        inArray(
          sql`lower(${offices.name})`,
          names.map((n) => n.toLowerCase()),
        ),
      );
    const idOf = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
    for (const [email, office] of Object.entries(DEMO_OFFICES)) {
      const officeId = idOf.get(office.toLowerCase());
      if (!officeId) continue;
      const moved = await tx
        .update(users)
        .set({ officeId })
        .where(and(eq(sql`lower(${users.email})`, email), isNull(users.officeId)))
        .returning({ id: users.id });
      for (const user of moved) await tx.update(pulls).set({ officeId }).where(eq(pulls.assigneeId, user.id));
    }
  });
}
