import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { calendarFeeds, pulls, ROLES, users } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import { hashPassword } from "@/lib/auth/password";
import { removeAllSecondFactors } from "@/lib/auth/second-factor";
import { endUserSessions } from "@/lib/auth/user-sessions";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, type CommandFailure, type CommandResult } from "@/lib/core/result";
import { newUserSchema } from "./save-user";

// Admins manage the agency's users: create with a role, change name or role, reset a
// password, deactivate (handing the user's open pulls to the queue or to someone else). The
// last active admin can be neither demoted nor deactivated, so the agency is never locked out.

const passwordSchema = newUserSchema.shape.password;
const idSchema = z.uuid("Unknown user.");

function firstIssue(error: z.ZodError): CommandFailure {
  const issue = error.issues[0];
  return invalid(issue?.message ?? "Check the form.", issue?.path[0]?.toString());
}

async function activeAdminCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, "ADMIN"), eq(users.isActive, true)));
  return row?.n ?? 0;
}

export async function createUser(
  db: Db,
  actor: Actor,
  input: z.input<typeof newUserSchema> | Record<string, unknown>,
  /** When the user is created; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult<{ id: string }>> {
  if (!can(actor, "users:manage")) return forbidden("Only admins can create users.");
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { email, name, role, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (existing) return invalid("Someone already uses that email address.", "email");
    const [created] = await tx
      .insert(users)
      .values({ email, name, role, passwordHash, createdAt: now, updatedAt: now })
      .returning({ id: users.id });
    if (!created) throw new Error("user not created");
    await recordAudit(tx, actor, "USER_CREATED", {
      subjectUserId: created.id,
      at: now,
      details: { email, name, role },
    });
    return { ok: true as const, id: created.id };
  });
}

export const updateUserInputSchema = z.object({
  userId: idSchema,
  name: z.string().trim().min(1, "Give the user's name.").max(120).optional(),
  role: z.enum(ROLES, { message: `Role must be one of ${ROLES.join(", ")}.` }).optional(),
});

export async function updateUser(
  db: Db,
  actor: Actor,
  input: z.input<typeof updateUserInputSchema> | Record<string, unknown>,
): Promise<CommandResult> {
  if (!can(actor, "users:manage")) return forbidden("Only admins can change users.");
  const parsed = updateUserInputSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { userId, name, role } = parsed.data;
  return db.transaction(async (tx) => {
    // Serialises admin changes, so two admins demoting each other cannot leave none.
    await tx.execute(sql`select pg_advisory_xact_lock(73482201)`);
    const [user] = await tx
      .select({ name: users.name, role: users.role, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) return notFound("That user");
    if (user.role === "ADMIN" && role && role !== "ADMIN" && user.isActive && (await activeAdminCount(tx)) <= 1) {
      return invalid("This is the last admin: make someone else an admin first.", "role");
    }
    await tx
      .update(users)
      .set({ name: name ?? user.name, role: role ?? user.role, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await recordAudit(tx, actor, "USER_CHANGED", {
      subjectUserId: userId,
      details: { from: { name: user.name, role: user.role }, to: { name: name ?? user.name, role: role ?? user.role } },
    });
    return { ok: true as const };
  });
}

export const resetPasswordInputSchema = z.object({ userId: idSchema, password: passwordSchema });

export async function resetPassword(
  db: Db,
  actor: Actor,
  input: { userId: string; password: string },
): Promise<CommandResult> {
  if (!can(actor, "users:manage")) return forbidden("Only admins can reset passwords.");
  const parsed = resetPasswordInputSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const passwordHash = await hashPassword(parsed.data.password);
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, parsed.data.userId))
      .returning({ id: users.id });
    if (updated.length === 0) return notFound("That user");
    // Whoever knew the old password may be signed in with it: every session of the user ends,
    // but the one making the change when it is the user's own.
    const endedSessions = await endUserSessions(
      tx,
      parsed.data.userId,
      "PASSWORD_CHANGED",
      actor.id === parsed.data.userId ? actor.sessionId : null,
    );
    // The calendar feed's address is a credential of its own: whoever held the old password may have made it.
    const feedRevoked =
      (await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, parsed.data.userId)).returning()).length > 0;
    await recordAudit(tx, actor, "PASSWORD_RESET", {
      subjectUserId: parsed.data.userId,
      details: { endedSessions, feedRevoked },
    });
    return { ok: true as const };
  });
}

export const resetSecondFactorInputSchema = z.object({ userId: idSchema });

/**
 * Removes a user's second factors (a lost phone, a lost security key), so they sign in with their
 * password alone and, where the agency requires one, set up a new factor first. Every session of
 * the user ends (but the admin's own, when it is their own reset): whoever held the lost factor
 * may be signed in with it.
 */
export async function resetSecondFactor(
  db: Db,
  actor: Actor,
  input: z.input<typeof resetSecondFactorInputSchema>,
): Promise<CommandResult<{ removed: boolean }>> {
  if (!can(actor, "users:manage")) return forbidden("Only admins can reset a second factor.");
  const parsed = resetSecondFactorInputSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { userId } = parsed.data;
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) return notFound("That user");
    const removed = await removeAllSecondFactors(tx, userId);
    const endedSessions = await endUserSessions(
      tx,
      userId,
      "SECOND_FACTOR_RESET",
      actor.id === userId ? actor.sessionId : null,
    );
    await recordAudit(tx, actor, "SECOND_FACTOR_RESET", {
      subjectUserId: userId,
      details: { ...removed, endedSessions },
    });
    return { ok: true as const, removed: removed.totp !== "none" || removed.passkeys > 0 };
  });
}

export const deactivateUserInputSchema = z.object({
  userId: idSchema,
  /** Who gets the user's open (WORKING) pulls; null sends them back to the queue. */
  handoverTo: z.uuid("Choose someone from the list.").nullable(),
});

export async function deactivateUser(
  db: Db,
  actor: Actor,
  input: z.input<typeof deactivateUserInputSchema>,
  /** When the user is deactivated; now, except for a history built after the fact (lib/demo). */
  now: Date = new Date(),
): Promise<CommandResult<{ handedOver: number }>> {
  if (!can(actor, "users:manage")) return forbidden("Only admins can deactivate users.");
  const parsed = deactivateUserInputSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { userId, handoverTo } = parsed.data;
  if (userId === handoverTo) return invalid("Hand the pulls to someone else.", "handoverTo");
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(73482201)`);
    const [user] = await tx
      .select({ role: users.role, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, userId));
    if (!user || !user.isActive) return notFound("That active user");
    if (user.role === "ADMIN" && (await activeAdminCount(tx)) <= 1)
      return invalid("This is the last admin and cannot be deactivated.", "userId");
    let handoverName: string | null = null;
    if (handoverTo) {
      const [target] = await tx
        .select({ name: users.name })
        .from(users)
        .where(and(eq(users.id, handoverTo), eq(users.isActive, true)));
      if (!target) return invalid("That person does not exist or is no longer active.", "handoverTo");
      handoverName = target.name;
    }
    await tx.update(users).set({ isActive: false, updatedAt: now }).where(eq(users.id, userId));
    // Open pulls move on; won and lost ones keep their owner for the reports.
    const moved = await tx
      .update(pulls)
      .set({ assigneeId: handoverTo, assignedAt: handoverTo ? now : null, assigneeSeenAt: null })
      .where(and(eq(pulls.assigneeId, userId), eq(pulls.stage, "WORKING")))
      .returning({ pullId: pulls.pullId });
    for (const { pullId } of moved) {
      await recordAudit(tx, actor, handoverTo ? "PULL_ASSIGNED" : "PULL_UNASSIGNED", {
        pullId,
        at: now,
        subjectUserId: handoverTo ?? userId,
        details: { from: userId, to: handoverTo, toName: handoverName, reason: "deactivation" },
      });
    }
    await recordAudit(tx, actor, "USER_DEACTIVATED", {
      subjectUserId: userId,
      at: now,
      details: { handoverTo, handedOver: moved.length },
    });
    return { ok: true as const, handedOver: moved.length };
  });
}
