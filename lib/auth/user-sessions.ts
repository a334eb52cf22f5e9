import "server-only";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { userSessions, users, type User } from "@/db/schema";
import type { Db } from "@/db/types";

// Server-side sessions behind next-auth's signed cookie. The cookie (a JWT) carries the user's id
// and the id of a row here; a request counts as signed in only while that row is open: not
// signed out, not ended by a password change, not past its absolute end. Ending a session is
// then one UPDATE, and a copied cookie stops working at once.

export type SessionEndReason = "SIGNED_OUT" | "PASSWORD_CHANGED" | "SECOND_FACTOR_RESET";

const isUuid = (value: unknown): value is string => typeof value === "string" && z.uuid().safeParse(value).success;

/** Opens a session at sign-in; it ends by itself `lifetimeSeconds` later at the latest. */
export async function startUserSession(
  db: Db,
  userId: string,
  options: { address: string | null; lifetimeSeconds: number },
): Promise<string> {
  const [row] = await db
    .insert(userSessions)
    .values({
      userId,
      address: options.address,
      expiresAt: sql`now() + make_interval(secs => ${options.lifetimeSeconds}::double precision)`,
    })
    .returning({ id: userSessions.id });
  if (!row) throw new Error("session not started");
  // Ended and expired sessions are history nobody reads; about one sign-in in fifty sweeps those a week old.
  if (Math.random() < 0.02)
    await db.delete(userSessions).where(sql`${userSessions.expiresAt} < now() - interval '7 days'`);
  return row.id;
}

/** The active user a session cookie names, if that session is still open; else null. */
export async function getOpenSessionUser(db: Db, userId: unknown, sessionId: unknown): Promise<User | null> {
  if (!isUuid(userId) || !isUuid(sessionId)) return null;
  const rows = await db
    .select({ user: users })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(
      and(
        eq(userSessions.id, sessionId),
        eq(userSessions.userId, userId),
        isNull(userSessions.endedAt),
        gt(userSessions.expiresAt, sql`now()`),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return rows[0]?.user ?? null;
}

/** Ends one session (sign-out). */
export async function endUserSession(db: Db, sessionId: unknown, reason: SessionEndReason): Promise<void> {
  if (!isUuid(sessionId)) return;
  await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.endedAt)));
}

/** Ends every open session of a user but `except` (the one that made the change, if theirs). */
export async function endUserSessions(
  db: Db,
  userId: string,
  reason: SessionEndReason,
  except?: string | null,
): Promise<number> {
  const ended = await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.endedAt),
        except && isUuid(except) ? ne(userSessions.id, except) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  return ended.length;
}
