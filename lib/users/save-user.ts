import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { calendarFeeds, ROLES, users } from "@/db/schema";
import { hashPassword, PASSWORD_TOO_LONG_MESSAGE, passwordFitsBcrypt } from "@/lib/auth/password";
import { endUserSessions } from "@/lib/auth/user-sessions";
import { DEMO_PASSWORD } from "@/lib/auth/demo-users";

// Creating a real user (or resetting one's password and role): the way into a production
// install, where the demo users do not exist. Used by `npm run user:save`.

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Give a valid email address.")),
  name: z.string().trim().min(1, "Give the user's name.").max(120),
  role: z.enum(ROLES, { message: `Role must be one of ${ROLES.join(", ")}.` }),
  password: z
    .string()
    .min(12, "Use a password of at least 12 characters.")
    .refine(passwordFitsBcrypt, PASSWORD_TOO_LONG_MESSAGE)
    .refine((p) => p !== DEMO_PASSWORD, "The demo password cannot be used for a real account."),
});
export type NewUser = z.input<typeof newUserSchema>;

/** Inserts the user, or updates name, role and password of the one with that email. */
export async function saveUser(db: Db, input: NewUser): Promise<{ id: string; created: boolean }> {
  const user = newUserSchema.parse(input);
  const passwordHash = await hashPassword(user.password);
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${user.email}`)
    .limit(1);
  const found = existing[0];
  if (found) {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ name: user.name, role: user.role, passwordHash, isActive: true })
        .where(eq(users.id, found.id));
      // A new password ends every session signed in with the old one.
      await endUserSessions(tx, found.id, "PASSWORD_CHANGED");
      // And the calendar feed's address, which whoever knew the old password may have made.
      await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, found.id));
    });
    return { id: found.id, created: false };
  }
  const [row] = await db
    .insert(users)
    .values({ email: user.email, name: user.name, role: user.role, passwordHash })
    .returning({ id: users.id });
  if (!row) throw new Error("The user was not saved.");
  return { id: row.id, created: true };
}
