import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { users, type Role } from "@/db/schema";

// The one read of a password hash: it leaves the database only for a sign-in.

export type UserCredentials = {
  id: string;
  email: string;
  name: string;
  role: Role;
  isActive: boolean;
  passwordHash: string;
};

/** The account an email names, with its password hash: for checking a sign-in, nothing else. */
export async function getUserCredentialsByEmail(db: Db, email: string): Promise<UserCredentials | null> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      isActive: users.isActive,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}
