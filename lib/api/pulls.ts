import "server-only";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/db/types";
import { pulls, users } from "@/db/schema";
import { canOnPull, viewScope } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { CommandFailure, CommandResult } from "@/lib/core/result";
import { invalid, notFound } from "@/lib/core/result";
import { householdOf } from "@/lib/pulls/household";
import { getPullDetail, listedPull } from "@/lib/pulls/queries";
import { visibleTo } from "@/lib/pulls/visibility";
import { assignPulls } from "@/lib/workflow/assignment";
import { setPullStage } from "@/lib/workflow/funnel";
import type { PullDetailBody, PullListQuery, PullPatch, PullSummary } from "./schemas";

// The pulls of the public API: a list paged by last change, one pull in Coverdesk's public
// shape (./schemas.ts), and its change through the pages' own commands (the stage form's
// setPullStage, assignment's assignPulls) with their permission rules and audit trail.

type Cursor = { updatedAt: string; pullId: string };

const encodeCursor = (cursor: Cursor) =>
  Buffer.from(JSON.stringify([cursor.updatedAt, cursor.pullId])).toString("base64url");

function decodeCursor(text: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [updatedAt, pullId] = value;
    if (typeof updatedAt !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(updatedAt)) return null;
    if (typeof pullId !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(pullId))
      return null;
    return { updatedAt, pullId };
  } catch {
    return null;
  }
}

/** updated_at to the microsecond, as the cursor holds it (a JavaScript date keeps milliseconds only). */
const updatedKey = sql<string>`to_char(${pulls.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/**
 * The listed pulls the actor may see, oldest change first, after the cursor: a client that
 * keeps the last `next_cursor` (or the last `updated_at` as `updated_since`) reads only what
 * changed since. Keyset-paged on (updated_at, pull_id), which pulls_api_updated_idx holds in order.
 */
export async function listApiPulls(
  db: Db,
  actor: Actor,
  query: PullListQuery,
): Promise<CommandResult<{ data: PullSummary[]; nextCursor: string | null }>> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor === null) return invalid("This cursor was not given by the API.", "cursor");
  const rows = await db
    .select({
      pullId: pulls.pullId,
      status: pulls.status,
      type: pulls.type,
      firstName: pulls.firstName,
      lastName: pulls.lastName,
      email: pulls.email,
      carrier: sql<string | null>`coalesce(${pulls.providerFriendlyName}, ${pulls.providerName})`,
      policyCount: pulls.policyCount,
      totalPremiumCents: pulls.totalPremiumCents,
      stage: pulls.stage,
      assigneeEmail: users.email,
      wonPremiumCents: pulls.wonPremiumCents,
      isArchived: pulls.isArchived,
      createdAt: pulls.serviceCreatedAt,
      updatedAt: pulls.updatedAt,
      updatedKey,
    })
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(
      and(
        listedPull,
        visibleTo(viewScope(actor)),
        query.updated_since ? gte(pulls.updatedAt, new Date(query.updated_since)) : undefined,
        cursor
          ? sql`(${pulls.updatedAt}, ${pulls.pullId}) > (${cursor.updatedAt}::timestamptz, ${cursor.pullId}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(pulls.updatedAt), asc(pulls.pullId))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    ok: true as const,
    data: page.map((row) => ({
      pull_id: row.pullId,
      status: row.status,
      type: row.type,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      carrier: row.carrier,
      policy_count: row.policyCount,
      total_premium_cents: row.totalPremiumCents,
      stage: row.stage,
      assignee_email: row.assigneeEmail,
      won_premium_cents: row.wonPremiumCents,
      is_archived: row.isArchived,
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt) ?? "",
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ updatedAt: last.updatedKey, pullId: last.pullId }) : null,
  };
}

/** One pull in the API's shape, or NOT_FOUND when it does not exist or the actor may not see it. */
export async function getApiPull(
  db: Db,
  actor: Actor,
  pullId: string,
): Promise<CommandResult<{ pull: PullDetailBody }>> {
  const detail = await getPullDetail(db, pullId);
  if (!detail || !canOnPull(actor, "pulls:view", detail.workflow)) return notFound();
  const [row] = await db
    .select({ updatedAt: pulls.updatedAt, createdAt: pulls.serviceCreatedAt, assigneeEmail: users.email })
    .from(pulls)
    .leftJoin(users, eq(users.id, pulls.assigneeId))
    .where(eq(pulls.pullId, pullId));
  if (!row) return notFound();
  const { pull, workflow } = detail;
  const household = householdOf(pull);
  const address = (
    a: {
      full_address?: string | null;
      street?: string | null;
      city?: string | null;
      state?: string | null;
      zip?: string | null;
    } | null,
  ) =>
    a
      ? {
          full_address: a.full_address ?? null,
          street: a.street ?? null,
          city: a.city ?? null,
          state: a.state ?? null,
          zip: a.zip ?? null,
        }
      : null;
  return {
    ok: true as const,
    pull: {
      pull_id: pull.pull_id,
      status: pull.status ?? "UNKNOWN",
      type: pull.type ?? null,
      account_identifier: pull.account_identifier ?? null,
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt) ?? "",
      household: {
        first_name: pull.first_name ?? null,
        middle_name: pull.middle_name ?? null,
        last_name: pull.last_name ?? null,
        email: pull.email ?? pull.account_email ?? null,
        phone: pull.phone ?? pull.mobile_phone ?? pull.home_phone ?? null,
        address: address(household.address),
        total_annual_premium_cents: household.totalAnnualCents,
      },
      policies: household.policies.map(({ policy, annualCents, inForce }) => ({
        policy_id: policy.policy_id,
        policy_type: policy.policy_type ?? null,
        status: policy.status ?? null,
        carrier: policy.carrier_friendly_name ?? policy.carrier_name ?? null,
        carrier_policy_number: policy.carrier_policy_number ?? null,
        effective_date: policy.effective_date ?? null,
        expiry_date: policy.expiry_date ?? null,
        premium_cents: policy.total_premium_cents ?? null,
        annual_premium_cents: annualCents,
        in_force: inForce,
      })),
      vehicles: household.vehicles.map(({ vehicle, policy }) => ({
        vehicle_id: vehicle.vehicle_id,
        policy_id: policy.policy_id,
        year: vehicle.year ?? null,
        make: vehicle.make ?? null,
        model: vehicle.model ?? null,
        vin: vehicle.vin ?? null,
      })),
      dwellings: household.dwellings.map(({ dwelling, policy }) => ({
        dwelling_id: dwelling.dwelling_id,
        policy_id: policy.policy_id,
        address: address(dwelling.address ?? null),
        replacement_cost_cents: dwelling.replacement_cost_cents ?? null,
      })),
      drivers: household.drivers.map((driver) => ({
        driver_id: driver.driver_id,
        first_name: driver.first_name ?? null,
        last_name: driver.last_name ?? null,
        date_of_birth: driver.date_of_birth_str ?? null,
        drivers_license: driver.drivers_license ?? null,
        drivers_license_state: driver.drivers_license_state ?? null,
        relationship_to_insured: driver.relationship_to_insured ?? null,
      })),
      agency: {
        stage: workflow.stage as PullDetailBody["agency"]["stage"],
        stage_changed_at: iso(workflow.stageChangedAt),
        assignee_email: row.assigneeEmail,
        assignee_name: workflow.assigneeName,
        won_premium_cents: workflow.wonPremiumCents,
        lost_reason: workflow.lostReason,
        lost_category: workflow.lostCategory,
        lost_to_carrier: workflow.lostToCarrier,
        lost_to_premium_cents: workflow.lostToPremiumCents,
      },
    },
  };
}

/** The commands' own field names, as the API names them. */
export const PATCH_FIELD_NAMES: Record<string, string> = {
  pullId: "pull_id",
  premium: "premium_cents",
  lostReason: "lost_reason",
  lostCategory: "lost_category",
  lostToCarrier: "lost_to_carrier",
  lostToPremium: "lost_to_premium_cents",
  assigneeId: "assignee_email",
  pullIds: "pull_id",
};

/** Cents as the stage form's premium box takes them ("1234.50"). */
const dollarsOf = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

class Refused extends Error {
  constructor(readonly failure: CommandFailure) {
    super(failure.message);
  }
}

/**
 * Changes a pull's owner and/or stage through the pages' commands, in one transaction: both
 * happen or neither. The owner is set first, so a win sent together with its owner is credited
 * to them. Answers the pull as it now is.
 */
export async function changeApiPull(
  db: Db,
  actor: Actor,
  pullId: string,
  patch: PullPatch,
): Promise<CommandResult<{ pull: PullDetailBody }>> {
  try {
    await db.transaction(async (tx) => {
      if (patch.assignee_email !== undefined) {
        let assigneeId: string | null = null;
        if (patch.assignee_email !== null) {
          const [user] = await tx
            .select({ id: users.id })
            .from(users)
            .where(
              and(sql`lower(${users.email}) = ${patch.assignee_email.trim().toLowerCase()}`, eq(users.isActive, true)),
            );
          if (!user) throw new Refused(invalid("No active user has that email.", "assignee_email"));
          assigneeId = user.id;
        }
        const assigned = await assignPulls(tx, actor, { pullIds: [pullId], assigneeId });
        if (!assigned.ok) throw new Refused(assigned);
      }
      if (patch.stage !== undefined) {
        const staged = await setPullStage(tx, actor, {
          pullId,
          stage: patch.stage,
          premium: patch.premium_cents === undefined ? undefined : dollarsOf(patch.premium_cents),
          lostReason: patch.lost_reason,
          lostCategory: patch.lost_category,
          lostToCarrier: patch.lost_to_carrier,
          lostToPremium: patch.lost_to_premium_cents === undefined ? undefined : dollarsOf(patch.lost_to_premium_cents),
        });
        if (!staged.ok) throw new Refused(staged);
      }
    });
  } catch (error) {
    if (error instanceof Refused) return error.failure;
    throw error;
  }
  return getApiPull(db, actor, pullId);
}
