import "server-only";
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { agencyzoomSettings, agencyzoomUserMap, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, type CommandResult } from "@/lib/core/result";
import { typedNumber } from "@/lib/core/typed-number";

// What a lead needs that a pull lacks (the admin's assumptions: pipeline, stage, lead source,
// country, the fallback assignee) and which AgencyZoom user each Coverdesk user is. One row of
// settings (no row reads as nothing chosen, country US); the user map one row per mapped user.

export type AgencyzoomSettings = {
  pipelineId: number | null;
  stageId: number | null;
  leadSourceId: number | null;
  country: string;
  fallbackAssigneeId: number | null;
  /** Coverdesk user id → AgencyZoom user id. */
  userMap: Record<string, number>;
  updatedAt: Date | null;
};

export const NO_AGENCYZOOM_SETTINGS: AgencyzoomSettings = {
  pipelineId: null,
  stageId: null,
  leadSourceId: null,
  country: "US",
  fallbackAssigneeId: null,
  userMap: {},
  updatedAt: null,
};

const idField = (label: string) => {
  const message = `The ${label} is AgencyZoom's id of it: a whole number, or empty for none yet.`;
  return typedNumber(
    z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message),
  ).nullable();
};

/** The admin page's form (rows `userMap.0.userId`, `userMap.0.agencyzoomUserId`…), and callers'. */
export const agencyzoomSettingsSchema = z.object({
  pipelineId: idField("pipeline"),
  stageId: idField("stage"),
  leadSourceId: idField("lead source"),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "The country is a two-letter code, such as US."),
  fallbackAssigneeId: idField("fallback assignee"),
  userMap: z
    .array(
      z.object({
        userId: z.uuid("This form could not be read. Reload the page and try again."),
        agencyzoomUserId: idField("AgencyZoom user"),
      }),
    )
    .max(1000)
    .default([]),
});
export type AgencyzoomSettingsInput = z.input<typeof agencyzoomSettingsSchema>;

export async function getAgencyzoomSettings(db: Db): Promise<AgencyzoomSettings> {
  const [row] = await db.select().from(agencyzoomSettings).where(eq(agencyzoomSettings.id, 1));
  const mapped = await db.select().from(agencyzoomUserMap);
  const userMap = Object.fromEntries(mapped.map((m) => [m.userId, m.agencyzoomUserId]));
  if (!row) return { ...NO_AGENCYZOOM_SETTINGS, userMap };
  return {
    pipelineId: row.pipelineId,
    stageId: row.stageId,
    leadSourceId: row.leadSourceId,
    country: /^[A-Z]{2}$/.test(row.country) ? row.country : "US",
    fallbackAssigneeId: row.fallbackAssigneeId,
    userMap,
    updatedAt: row.updatedAt,
  };
}

/** Saves the settings and the user map in one transaction, audited with what was saved. */
export async function saveAgencyzoomSettings(
  db: Db,
  actor: Actor,
  input: AgencyzoomSettingsInput,
): Promise<CommandResult> {
  const parsed = agencyzoomSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "The settings could not be read.", issue?.path.join("."));
  }
  const { userMap, ...settings } = parsed.data;
  const userIds = [...new Set(userMap.map((m) => m.userId))];
  const known =
    userIds.length === 0
      ? []
      : (await db.select({ id: users.id }).from(users).where(inArray(users.id, userIds))).map((u) => u.id);
  if (known.length !== userIds.length)
    return invalid("A user in the list no longer exists. Reload the page.", "userMap");
  const mapped = userMap.filter((m): m is { userId: string; agencyzoomUserId: number } => m.agencyzoomUserId !== null);
  await db.transaction(async (tx) => {
    const values = { ...settings, updatedBy: actor.id, updatedAt: new Date() };
    await tx
      .insert(agencyzoomSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: agencyzoomSettings.id, set: values });
    // Users the form lists without an AgencyZoom user are unmapped; users it does not list keep theirs.
    const cleared = userMap.filter((m) => m.agencyzoomUserId === null).map((m) => m.userId);
    if (cleared.length > 0) await tx.delete(agencyzoomUserMap).where(inArray(agencyzoomUserMap.userId, cleared));
    for (const m of mapped)
      await tx
        .insert(agencyzoomUserMap)
        .values({ userId: m.userId, agencyzoomUserId: m.agencyzoomUserId })
        .onConflictDoUpdate({
          target: agencyzoomUserMap.userId,
          set: { agencyzoomUserId: m.agencyzoomUserId, updatedAt: new Date() },
        });
    await recordAudit(tx, actor, "AGENCYZOOM_SETTINGS_CHANGED", {
      details: { ...settings, mappedUsers: mapped.length, unmappedUsers: cleared.length },
    });
  });
  return { ok: true };
}

/** The AgencyZoom user a pull's lead goes to: its owner's mapped user, else the fallback. */
export function assigneeFor(settings: AgencyzoomSettings, ownerId: string | null): number | null {
  return (ownerId ? settings.userMap[ownerId] : undefined) ?? settings.fallbackAssigneeId;
}
