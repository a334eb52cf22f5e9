import { users } from "@/db/schema";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";

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
