import { z } from "zod";
import { PULL_STAGES } from "@/db/schema/pull-stage-values";
import { LOST_CATEGORIES } from "@/lib/workflow/lost-reasons";

// The public shapes of /api/v1, in snake_case, each a zod schema that the handlers parse with
// and the OpenAPI document is written from (./openapi.ts), so the document cannot drift from
// what is enforced. These are Coverdesk's own stable shapes, not the service's raw payload:
// a field the service adds or renames does not change them.

const nullableText = z.string().nullable();
const isoDate = z.string().nullable().meta({ description: "A date as the carrier gave it (ISO 8601), or null." });
const cents = z.int().nullable();

export const pullIdParamsSchema = z.object({
  pull_id: z.uuid().meta({ description: "The pull's id (a UUID).", param: { name: "pull_id", in: "path" } }),
});

/** The agency systems a pull exports to as a file (lib/handoff). */
export const pullExportParamsSchema = pullIdParamsSchema.extend({
  format: z.enum(["ezlynx-auto", "ezlynx-home"]).meta({
    description: "EZLynx applicant XML (EZAUTO or EZHOME V200), for EZLynx's Import Applicant.",
    param: { name: "format", in: "path" },
  }),
});

export const pullListQuerySchema = z.object({
  limit: z.coerce
    .number({ message: "limit must be a whole number from 1 to 100." })
    .int("limit must be a whole number from 1 to 100.")
    .min(1, "limit must be a whole number from 1 to 100.")
    .max(100, "limit must be a whole number from 1 to 100.")
    .default(50)
    .meta({ description: "Pulls a page, 1–100 (default 50).", param: { name: "limit", in: "query" } }),
  cursor: z
    .string()
    .max(200, "This cursor was not given by the API.")
    .optional()
    .meta({ description: "`next_cursor` of the page before.", param: { name: "cursor", in: "query" } }),
  updated_since: z.iso
    .datetime({ offset: true, message: "updated_since must be an ISO 8601 date-time, such as 2026-01-31T09:00:00Z." })
    .optional()
    .meta({
      description: "Only pulls changed at or after this instant (their data, stage, owner or premium).",
      param: { name: "updated_since", in: "query" },
    }),
});
export type PullListQuery = z.output<typeof pullListQuerySchema>;

export const stageSchema = z.enum(PULL_STAGES).meta({ description: "The agency's funnel stage." });

export const pullSummarySchema = z
  .object({
    pull_id: z.uuid(),
    status: z.string().meta({ description: "The service's status of the pull (SUCCESS, …)." }),
    type: nullableText,
    first_name: nullableText,
    last_name: nullableText,
    email: nullableText,
    carrier: nullableText.meta({ description: "The carrier's name for people." }),
    policy_count: z.int(),
    total_premium_cents: cents,
    stage: stageSchema,
    assignee_email: nullableText,
    won_premium_cents: cents,
    is_archived: z.boolean(),
    created_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .meta({ description: "When the consumer linked the account." }),
    updated_at: z.iso.datetime({ offset: true }).meta({ description: "When the pull last changed." }),
  })
  .meta({ id: "PullSummary" });
export type PullSummary = z.output<typeof pullSummarySchema>;

export const pullListSchema = z
  .object({
    data: z.array(pullSummarySchema),
    next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .meta({ id: "PullList" });

const addressSchema = z
  .object({
    full_address: nullableText,
    street: nullableText,
    city: nullableText,
    state: nullableText,
    zip: nullableText,
  })
  .meta({ id: "Address" });

const policySchema = z
  .object({
    policy_id: z.string(),
    policy_type: nullableText,
    status: nullableText,
    carrier: nullableText,
    carrier_policy_number: nullableText,
    effective_date: isoDate,
    expiry_date: isoDate,
    premium_cents: cents.meta({ description: "The term's premium as the carrier states it." }),
    annual_premium_cents: cents.meta({ description: "The premium over a year (a six-month term doubled)." }),
    in_force: z.boolean(),
  })
  .meta({ id: "Policy" });

const vehicleSchema = z
  .object({
    vehicle_id: z.string(),
    policy_id: z.string(),
    year: z.int().nullable(),
    make: nullableText,
    model: nullableText,
    vin: nullableText,
  })
  .meta({ id: "Vehicle" });

const dwellingSchema = z
  .object({
    dwelling_id: z.string(),
    policy_id: z.string(),
    address: addressSchema.nullable(),
    replacement_cost_cents: cents,
  })
  .meta({ id: "Dwelling" });

const driverSchema = z
  .object({
    driver_id: z.string(),
    first_name: nullableText,
    last_name: nullableText,
    date_of_birth: nullableText.meta({ description: "As the carrier wrote it." }),
    drivers_license: nullableText,
    drivers_license_state: nullableText,
    relationship_to_insured: nullableText,
  })
  .meta({ id: "Driver" });

export const pullDetailSchema = z
  .object({
    pull_id: z.uuid(),
    status: z.string(),
    type: nullableText,
    account_identifier: nullableText.meta({ description: "The same for every pull of one account." }),
    created_at: z.iso.datetime({ offset: true }).nullable(),
    updated_at: z.iso.datetime({ offset: true }),
    household: z.object({
      first_name: nullableText,
      middle_name: nullableText,
      last_name: nullableText,
      email: nullableText,
      phone: nullableText,
      address: addressSchema.nullable(),
      total_annual_premium_cents: cents.meta({ description: "Sum over the policies in force that state a premium." }),
    }),
    policies: z.array(policySchema),
    vehicles: z.array(vehicleSchema),
    dwellings: z.array(dwellingSchema),
    drivers: z.array(driverSchema),
    agency: z.object({
      stage: stageSchema,
      stage_changed_at: z.iso.datetime({ offset: true }).nullable(),
      assignee_email: nullableText,
      assignee_name: nullableText,
      won_premium_cents: cents,
      lost_reason: nullableText,
      lost_category: nullableText,
      lost_to_carrier: nullableText,
      lost_to_premium_cents: cents,
    }),
  })
  .meta({ id: "Pull" });
export type PullDetailBody = z.output<typeof pullDetailSchema>;

const positiveCents = (name: string) =>
  z
    .int(`${name} must be a whole number of cents.`)
    .min(1, `${name} must be more than 0.`)
    .max(100_000_000_00, `${name} is too large.`);

/**
 * PATCH /api/v1/pulls/{pull_id}: a stage (WON with its premium, LOST with why), an owner, or
 * both. Fields that belong to another stage are refused rather than ignored.
 */
export const pullPatchSchema = z
  .strictObject({
    stage: stageSchema.optional(),
    premium_cents: positiveCents("premium_cents").optional().meta({ description: "WON: the premium won, in cents." }),
    lost_reason: z.string().max(500, "Keep lost_reason under 500 characters.").optional(),
    lost_category: z.enum(LOST_CATEGORIES).optional(),
    lost_to_carrier: z.string().max(100, "Keep lost_to_carrier under 100 characters.").optional(),
    lost_to_premium_cents: positiveCents("lost_to_premium_cents").optional(),
    assignee_email: z
      .email("assignee_email must be the email of an active user.")
      .nullable()
      .optional()
      .meta({ description: "Who works the pull; null puts it back in the queue." }),
  })
  .superRefine((body, context) => {
    if (body.stage === undefined && body.assignee_email === undefined)
      context.addIssue({ code: "custom", message: "Send a stage, an assignee_email or both.", path: ["stage"] });
    if (body.stage === "WON" && body.premium_cents === undefined)
      context.addIssue({ code: "custom", message: "A WON pull needs premium_cents.", path: ["premium_cents"] });
    if (body.stage !== "WON" && body.premium_cents !== undefined)
      context.addIssue({ code: "custom", message: "premium_cents goes with stage WON.", path: ["premium_cents"] });
    for (const field of ["lost_reason", "lost_category", "lost_to_carrier", "lost_to_premium_cents"] as const)
      if (body.stage !== "LOST" && body[field] !== undefined)
        context.addIssue({ code: "custom", message: `${field} goes with stage LOST.`, path: [field] });
  })
  .meta({ id: "PullChange" });
export type PullPatch = z.output<typeof pullPatchSchema>;
