import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { users, type Role } from "@/db/schema";

// Every query names its columns: the password hash leaves the database only for a sign-in.

export type ActiveUser = { id: string; email: string; name: string; role: Role };

export async function getActiveUser(db: Db, id: string): Promise<ActiveUser | null> {
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Everyone a pull can be given to: active users, by name; only those of `officeId` when given
 * (a manager of an office assigns within it, lib/workflow/assignment.ts).
 */
export async function listActiveUsers(
  db: Db,
  officeId: string | null = null,
): Promise<Array<{ id: string; name: string; role: string }>> {
  return db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(and(eq(users.isActive, true), officeId ? eq(users.officeId, officeId) : undefined))
    .orderBy(users.name);
}

/** Every user, active first, for the admin's user page. */
export async function listAllUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      isActive: users.isActive,
      officeId: users.officeId,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(sql`${users.isActive} desc`, users.name);
}
