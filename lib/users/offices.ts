import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { assignmentSettings, offices, pulls, users } from "@/db/schema";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { forbidden, invalid, notFound, type CommandFailure, type CommandResult } from "@/lib/core/result";

// The agency's offices: admins create, rename and delete them (an office with people or an
// assignment rule naming it is not deleted), and move users between them. A user's office
// narrows what a manager or an agent sees (lib/auth/permissions.ts).

export const OFFICE_NAME_MAX = 80;

const idSchema = z.uuid("Unknown office.");
const nameSchema = z
  .string("Name the office.")
  .trim()
  .min(1, "Name the office.")
  .max(OFFICE_NAME_MAX, `Keep the name to ${OFFICE_NAME_MAX} characters.`);

export const officeInputSchema = z.object({ name: nameSchema });
export const officeRenameSchema = z.object({ id: idSchema, name: nameSchema });
export const userOfficeSchema = z.object({
  userId: z.uuid("Unknown user."),
  /** Null or "": agency-wide. */
  officeId: z.preprocess((v) => (v === "" ? null : v), idSchema.nullable()),
});

export type OfficeRow = { id: string; name: string; people: number };

function firstIssue(error: z.ZodError): CommandFailure {
  const issue = error.issues[0];
  return invalid(issue?.message ?? "Check the form.", issue?.path[0]?.toString());
}

/** Every office, by name, with how many users it has. */
export async function listOffices(db: Db): Promise<OfficeRow[]> {
  return db
    .select({
      id: offices.id,
      name: offices.name,
      people: sql<number>`(select count(*)::int from ${users} where ${users.officeId} = ${offices.id})`,
    })
    .from(offices)
    .orderBy(asc(sql`lower(${offices.name})`));
}

async function nameTaken(db: Db, name: string, except: string | null = null): Promise<boolean> {
  const [row] = await db
    .select({ id: offices.id })
    .from(offices)
    .where(sql`lower(${offices.name}) = lower(${name})${except ? sql` and ${offices.id} <> ${except}` : sql``}`);
  return Boolean(row);
}

const TAKEN = "Another office has that name.";

export async function createOffice(
  db: Db,
  actor: Actor,
  input: z.input<typeof officeInputSchema> | Record<string, unknown>,
): Promise<CommandResult<{ id: string }>> {
  if (!can(actor, "offices:manage")) return forbidden("Only admins manage offices.");
  const parsed = officeInputSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { name } = parsed.data;
  return db.transaction(async (tx) => {
    if (await nameTaken(tx, name)) return invalid(TAKEN, "name");
    // The unique index decides between two admins creating the same name at once.
    const [created] = await tx.insert(offices).values({ name }).onConflictDoNothing().returning({ id: offices.id });
    if (!created) return invalid(TAKEN, "name");
    await recordAudit(tx, actor, "OFFICE_CREATED", { details: { office: created.id, name } });
    return { ok: true as const, id: created.id };
  });
}

export async function renameOffice(
  db: Db,
  actor: Actor,
  input: z.input<typeof officeRenameSchema> | Record<string, unknown>,
): Promise<CommandResult> {
  if (!can(actor, "offices:manage")) return forbidden("Only admins manage offices.");
  const parsed = officeRenameSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { id, name } = parsed.data;
  return db.transaction(async (tx) => {
    const [office] = await tx.select({ name: offices.name }).from(offices).where(eq(offices.id, id)).for("update");
    if (!office) return notFound("That office");
    if (office.name === name) return { ok: true as const };
    if (await nameTaken(tx, name, id)) return invalid(TAKEN, "name");
    await tx.update(offices).set({ name }).where(eq(offices.id, id));
    await recordAudit(tx, actor, "OFFICE_RENAMED", { details: { office: id, from: office.name, name } });
    return { ok: true as const };
  });
}

/** Deletes an office nobody is in and no assignment rule names; its pulls become agency-wide. */
export async function deleteOffice(db: Db, actor: Actor, input: { id?: unknown }): Promise<CommandResult> {
  if (!can(actor, "offices:manage")) return forbidden("Only admins manage offices.");
  const parsed = idSchema.safeParse(input.id);
  if (!parsed.success) return invalid("Unknown office.", "id");
  const id = parsed.data;
  return db.transaction(async (tx) => {
    const [office] = await tx.select({ name: offices.name }).from(offices).where(eq(offices.id, id)).for("update");
    if (!office) return notFound("That office");
    const [people] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.officeId, id));
    if ((people?.n ?? 0) > 0) return invalid("Move its people to another office first.", "id");
    const [rule] = await tx
      .select({ id: assignmentSettings.id })
      .from(assignmentSettings)
      .where(sql`${assignmentSettings.rules} @> ${JSON.stringify([{ officeId: id }])}::jsonb`);
    if (rule) return invalid("An assignment rule sends pulls to this office: change it first.", "id");
    await tx.delete(offices).where(eq(offices.id, id));
    await recordAudit(tx, actor, "OFFICE_DELETED", { details: { office: id, name: office.name } });
    return { ok: true as const };
  });
}

/**
 * Moves a user to an office (or makes them agency-wide). The pulls assigned to them move with
 * them, as a pull belongs to its assignee's office (migration 0047): their manager is the new
 * office's.
 */
export async function setUserOffice(
  db: Db,
  actor: Actor,
  input: z.input<typeof userOfficeSchema> | Record<string, unknown>,
): Promise<CommandResult> {
  if (!can(actor, "offices:manage")) return forbidden("Only admins set a user's office.");
  const parsed = userOfficeSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const { userId, officeId } = parsed.data;
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ officeId: users.officeId }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) return notFound("That user");
    const names = new Map(
      (await tx.select({ id: offices.id, name: offices.name }).from(offices)).map((o) => [o.id, o.name]),
    );
    if (officeId && !names.has(officeId)) return invalid("Unknown office.", "officeId");
    if (user.officeId === officeId) return { ok: true as const };
    await tx.update(users).set({ officeId, updatedAt: new Date() }).where(eq(users.id, userId));
    await tx.update(pulls).set({ officeId }).where(eq(pulls.assigneeId, userId));
    await recordAudit(tx, actor, "USER_OFFICE_CHANGED", {
      subjectUserId: userId,
      details: {
        from: user.officeId,
        to: officeId,
        fromName: user.officeId ? (names.get(user.officeId) ?? null) : null,
        toName: officeId ? (names.get(officeId) ?? null) : null,
      },
    });
    return { ok: true as const };
  });
}
