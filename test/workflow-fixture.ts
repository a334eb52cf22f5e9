import { users } from "@/db/schema";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { createOffice, setUserOffice } from "@/lib/users/offices";

/** One active user of each role, plus a second agent, for permission tests. */
export async function createStaff(db: Db): Promise<{ admin: Actor; manager: Actor; agent: Actor; otherAgent: Actor }> {
  const rows = await db
    .insert(users)
    .values([
      { email: "admin@agency.test", name: "Ada Admin", role: "ADMIN", passwordHash: "x" },
      { email: "manager@agency.test", name: "Max Manager", role: "MANAGER", passwordHash: "x" },
      { email: "agent@agency.test", name: "Ann Agent", role: "AGENT", passwordHash: "x" },
      { email: "other@agency.test", name: "Otto Other", role: "AGENT", passwordHash: "x" },
    ])
    .returning({ id: users.id, name: users.name, role: users.role });
  const [admin, manager, agent, otherAgent] = rows;
  if (!admin || !manager || !agent || !otherAgent) throw new Error("staff not created");
  return { admin, manager, agent, otherAgent };
}

/**
 * Two offices, Main Street (the manager and the agent) and Riverside (the other agent), made and
 * staffed through the app's own commands; the admin stays agency-wide.
 */
export async function placeStaffInTwoOffices(
  db: Db,
  staff: { admin: Actor; manager: Actor; agent: Actor; otherAgent: Actor },
): Promise<{ officeA: string; officeB: string }> {
  const a = await createOffice(db, staff.admin, { name: "Main Street" });
  const b = await createOffice(db, staff.admin, { name: "Riverside" });
  if (!a.ok || !b.ok) throw new Error("offices not created");
  for (const [user, officeId] of [
    [staff.manager, a.id],
    [staff.agent, a.id],
    [staff.otherAgent, b.id],
  ] as const)
    if (!(await setUserOffice(db, staff.admin, { userId: user.id, officeId })).ok) throw new Error("office not set");
  return { officeA: a.id, officeB: b.id };
}
