import { z } from "zod";
import type { Db } from "@/db/types";
import type { Role } from "@/db/schema";
import { findUserByEmail } from "@/lib/users/queries";
import { DEMO_PASSWORD } from "@/lib/users/demo-users";
import { verifyPassword } from "./password";

export const credentialsSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

export type AuthenticatedUser = { id: string; email: string; name: string; role: Role };

/** Checks an email and password; null for any failure, so no answer tells which part was wrong. */
export async function authenticate(
  db: Db,
  input: unknown,
  options: { demoMode: boolean },
): Promise<AuthenticatedUser | null> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  if (!options.demoMode && password === DEMO_PASSWORD) return null;

  const user = await findUserByEmail(db, email);
  if (!user || !user.isActive) return null;
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
