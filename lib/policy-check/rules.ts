import { z } from "zod";
import type { PolicyCheckSettings } from "@/lib/service/schemas";
import type { PolicyCheckSettingsInput } from "@/lib/service/policy-check-api";
import { DWELLING_RULE_WORDS, VEHICLE_RULE_WORDS } from "./words";

// The team's policy-check rules as the admin page's form holds them, and back (service-notes,
// "Policy check"). The rules live at the service, not here: the page reads them from it and
// saves them to it. Money is typed in dollars and sent in cents; a blank amount turns its rule
// off (null), as the service's own settings do.

type Field =
  | { kind: "switch"; name: string; group: "vehicle" | "dwelling"; label: string }
  | { kind: "dollars"; name: string; label: string }
  | { kind: "minimum"; name: string; label: string }
  | { kind: "names"; name: string; label: string };

export const POLICY_CHECK_FIELDS: Field[] = [
  { kind: "switch", group: "vehicle", name: "POLICY_NOT_ACTIVE", label: VEHICLE_RULE_WORDS.POLICY_NOT_ACTIVE },
  { kind: "switch", group: "vehicle", name: "NO_COLLISION_COVERAGE", label: VEHICLE_RULE_WORDS.NO_COLLISION_COVERAGE },
  {
    kind: "switch",
    group: "vehicle",
    name: "NO_COMPREHENSIVE_COVERAGE",
    label: VEHICLE_RULE_WORDS.NO_COMPREHENSIVE_COVERAGE,
  },
  { kind: "switch", group: "vehicle", name: "VEHICLE_REMOVED", label: VEHICLE_RULE_WORDS.VEHICLE_REMOVED },
  { kind: "switch", group: "vehicle", name: "DRIVER_REMOVED", label: VEHICLE_RULE_WORDS.DRIVER_REMOVED },
  { kind: "dollars", name: "MAX_COLLISION_DEDUCTIBLE_CENTS", label: "Highest collision deductible" },
  { kind: "dollars", name: "MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS", label: "Highest comprehensive deductible" },
  { kind: "dollars", name: "MIN_PROPERTY_DAMAGE_COVERAGE_CENTS", label: "Lowest property damage limit" },
  { kind: "minimum", name: "MIN_BODILY_INJURY_COVERAGE", label: "Lowest bodily injury limits" },
  {
    kind: "minimum",
    name: "MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE",
    label: "Lowest uninsured motorist bodily injury limits",
  },
  { kind: "names", name: "LIENHOLDER_NAME_MISMATCH", label: "Lien holders a financed vehicle must name" },
  {
    kind: "switch",
    group: "dwelling",
    name: "DWELLING_POLICY_NOT_ACTIVE",
    label: DWELLING_RULE_WORDS.DWELLING_POLICY_NOT_ACTIVE,
  },
  {
    kind: "switch",
    group: "dwelling",
    name: "LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST",
    label: DWELLING_RULE_WORDS.LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST,
  },
  {
    kind: "switch",
    group: "dwelling",
    name: "REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT",
    label: DWELLING_RULE_WORDS.REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT,
  },
];

/** Every input's name: a minimum has one per person and one per accident. */
export const POLICY_CHECK_FIELD_NAMES = POLICY_CHECK_FIELDS.flatMap((f) =>
  f.kind === "minimum" ? [`${f.name}_PER_PERSON`, `${f.name}_PER_ACCIDENT`] : [f.name],
);

/**
 * The rules form as `formToSettings` reads it: each input as text, or absent (an unticked switch,
 * an empty amount); `formToSettings` says which one is wrong and why.
 */
export const policyCheckFormSchema = z.object(
  Object.fromEntries(POLICY_CHECK_FIELD_NAMES.map((name) => [name, z.string().optional()])),
) as z.ZodObject<Record<string, z.ZodOptional<z.ZodString>>>;

const MAX_DOLLARS = 100_000_000;
const MAX_NAMES = 50;

/** The form's values: "on" for a switch, dollars as typed, lien holders one per line. */
export type PolicyCheckForm = Record<string, string>;

const centsToDollars = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? "" : String(cents / 100);

/** The settings the service holds, normalized to what we send back: known rules only, with their types. */
export function settingsInput(settings: PolicyCheckSettings | null): Required<PolicyCheckSettingsInput> {
  const v = settings?.vehicle ?? null;
  const d = settings?.dwelling ?? null;
  const minimum = (m: { per_person_cents: number | null; per_accident_cents: number | null } | null | undefined) => ({
    per_person_cents: m?.per_person_cents ?? null,
    per_accident_cents: m?.per_accident_cents ?? null,
  });
  return {
    vehicle: {
      POLICY_NOT_ACTIVE: v?.POLICY_NOT_ACTIVE === true,
      LIENHOLDER_NAME_MISMATCH: v?.LIENHOLDER_NAME_MISMATCH ?? [],
      DRIVER_REMOVED: v?.DRIVER_REMOVED === true,
      VEHICLE_REMOVED: v?.VEHICLE_REMOVED === true,
      NO_COLLISION_COVERAGE: v?.NO_COLLISION_COVERAGE === true,
      NO_COMPREHENSIVE_COVERAGE: v?.NO_COMPREHENSIVE_COVERAGE === true,
      MAX_COLLISION_DEDUCTIBLE_CENTS: v?.MAX_COLLISION_DEDUCTIBLE_CENTS ?? null,
      MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS: v?.MAX_COMPREHENSIVE_DEDUCTIBLE_CENTS ?? null,
      MIN_PROPERTY_DAMAGE_COVERAGE_CENTS: v?.MIN_PROPERTY_DAMAGE_COVERAGE_CENTS ?? null,
      MIN_BODILY_INJURY_COVERAGE: minimum(v?.MIN_BODILY_INJURY_COVERAGE),
      MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE: minimum(v?.MIN_UNINSURED_MOTORIST_BODILY_INJURY_COVERAGE),
    },
    dwelling: {
      DWELLING_POLICY_NOT_ACTIVE: d?.DWELLING_POLICY_NOT_ACTIVE === true,
      LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST: d?.LOSS_SETTLEMENT_TYPE_EQUALS_REPLACEMENT_COST === true,
      REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT: d?.REPLACEMENT_COST_EXCEEDS_DWELLING_LIMIT === true,
    },
  };
}

/** Whether any rule is on: with none, the service has nothing to check. */
export function hasAnyRule(input: PolicyCheckSettingsInput): boolean {
  const values = [...Object.values(input.vehicle ?? {}), ...Object.values(input.dwelling ?? {})];
  return values.some((value) => {
    if (value === true) return true;
    if (typeof value === "number") return true;
    if (Array.isArray(value)) return value.length > 0;
    if (value && typeof value === "object") return Object.values(value).some((n) => typeof n === "number");
    return false;
  });
}

/** The settings as the form shows them. */
export function settingsToForm(input: Required<PolicyCheckSettingsInput>): PolicyCheckForm {
  const form: PolicyCheckForm = {};
  const vehicle = input.vehicle as Record<string, unknown>;
  const dwelling = input.dwelling as Record<string, unknown>;
  for (const field of POLICY_CHECK_FIELDS) {
    if (field.kind === "switch") {
      const on = (field.group === "vehicle" ? vehicle : dwelling)[field.name] === true;
      form[field.name] = on ? "on" : "";
    } else if (field.kind === "dollars") {
      form[field.name] = centsToDollars(vehicle[field.name] as number | null);
    } else if (field.kind === "minimum") {
      const m = vehicle[field.name] as { per_person_cents: number | null; per_accident_cents: number | null };
      form[`${field.name}_PER_PERSON`] = centsToDollars(m.per_person_cents);
      form[`${field.name}_PER_ACCIDENT`] = centsToDollars(m.per_accident_cents);
    } else {
      form[field.name] = ((vehicle[field.name] as string[] | undefined) ?? []).join("\n");
    }
  }
  return form;
}

/** "$1,000.50", "1000" → cents; blank → null (the rule off). */
const dollarsField = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const plain = text.replace(/^\$/, "").replace(/,/g, "");
    if (plain === "") return null;
    if (!/^\d+(\.\d{1,2})?$/.test(plain)) {
      ctx.addIssue({
        code: "custom",
        message: "Give an amount in dollars, such as 1000 or 1,000.50, or leave it blank.",
      });
      return z.NEVER;
    }
    const dollars = Number(plain);
    if (dollars > MAX_DOLLARS) {
      ctx.addIssue({ code: "custom", message: `Keep amounts at most $${MAX_DOLLARS.toLocaleString("en-US")}.` });
      return z.NEVER;
    }
    return Math.round(dollars * 100);
  });

const namesField = z
  .string()
  .transform((text) =>
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().max(200, "Keep each lien holder's name under 200 characters."))
      .max(MAX_NAMES, `Name at most ${MAX_NAMES} lien holders.`),
  );

export type FormParse =
  { ok: true; settings: Required<PolicyCheckSettingsInput> } | { ok: false; message: string; field: string };

/** The submitted form to the settings we send, or the first field's problem in words. */
export function formToSettings(form: Record<string, string | undefined>): FormParse {
  const vehicle: Record<string, unknown> = {};
  const dwelling: Record<string, unknown> = {};
  for (const field of POLICY_CHECK_FIELDS) {
    const label = field.label;
    if (field.kind === "switch") {
      (field.group === "vehicle" ? vehicle : dwelling)[field.name] = form[field.name] === "on";
      continue;
    }
    if (field.kind === "names") {
      const names = namesField.safeParse(form[field.name] ?? "");
      if (!names.success)
        return { ok: false, message: names.error.issues[0]?.message ?? "Check the lien holders.", field: field.name };
      vehicle[field.name] = names.data;
      continue;
    }
    const keys = field.kind === "dollars" ? [field.name] : [`${field.name}_PER_PERSON`, `${field.name}_PER_ACCIDENT`];
    const amounts: Array<number | null> = [];
    for (const key of keys) {
      const amount = dollarsField.safeParse(form[key] ?? "");
      if (!amount.success)
        return {
          ok: false,
          message: `${label}: ${amount.error.issues[0]?.message ?? "Check the amount."}`,
          field: key,
        };
      amounts.push(amount.data);
    }
    vehicle[field.name] =
      field.kind === "dollars" ? amounts[0] : { per_person_cents: amounts[0], per_accident_cents: amounts[1] };
  }
  const minimum = vehicle.MIN_BODILY_INJURY_COVERAGE as {
    per_person_cents: number | null;
    per_accident_cents: number | null;
  };
  if (
    minimum.per_person_cents !== null &&
    minimum.per_accident_cents !== null &&
    minimum.per_person_cents > minimum.per_accident_cents
  )
    return {
      ok: false,
      message: "Lowest bodily injury limits: the limit per person cannot be above the limit per accident.",
      field: "MIN_BODILY_INJURY_COVERAGE_PER_PERSON",
    };
  return { ok: true, settings: { vehicle, dwelling } as Required<PolicyCheckSettingsInput> };
}
