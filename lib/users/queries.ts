import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { users, type User } from "@/db/schema";

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findActiveUserById(db: Db, id: string): Promise<User | null> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)))
    .limit(1);
  return rows[0] ?? null;
}
