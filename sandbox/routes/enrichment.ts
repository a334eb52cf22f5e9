import { z } from "zod";
import { describeIssues, type Routes, type SandboxContext } from "../context";
import { parseAddressLine } from "../data/address-line";
import { driverLicense, drivingRecordIq, household, householdVehicle, propertyDataLookup } from "../data/enrichment";
import { findDriver, findHousehold, findProperty, licenseOf } from "../data/records";
import { teamState } from "../flows/team-state";
import { fail, send } from "../http";

// Team routes for the enrichment look-ups (service-notes, "Other team routes"), each a GET
// with the question as query parameters (no body) and the resource as the answer:
//   /enrich/propertyData      address → { address, data }; 400 INVALID_ADDRESS, 404 NO_PROPERTY_DATA
//   /enrich/driverLicense     person + purpose → { driver_license_id, driver_license }
//   /enrich/drivingRecordIq   person + purpose, a birth date or a licence → { driving_record_iq_id, driving_record_iq }
//   /enrich/household         person + purpose → { household_id, drivers, vehicles }
// The address is one line; dates of birth are MM/DD/YYYY; the permissible-purpose fields
// (purpose, employee_name, employee_job_function) are required on every person look-up.
// A person or address the seeded book knows is answered from that account (records.ts); any
// other question gets a plausible answer, the same each time it is asked.
// Scenario for "no record": last name "Nobody" answers 404 NOT_FOUND; zip 00000 has no property data.
// Enrichment is plan-gated: without it in the plan (SandboxOptions.plan, or POST /_sandbox/plan
// {enrichment:false}) every look-up answers 403 FORBIDDEN.

const name = z.string().trim().min(1).max(100);
const state = z.string().regex(/^[A-Z]{2}$/, "a two-letter state code");
const dateOfBirth = z.string().regex(/^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/, "a date as MM/DD/YYYY");
const address = z.string().trim().min(1).max(300);
const person = {
  first_name: name,
  middle_name: name.optional(),
  last_name: name,
  address,
  purpose: z.string().trim().min(1).max(100),
  employee_name: z.string().trim().min(1).max(200),
  employee_job_function: z.string().trim().min(1).max(200),
};

const schemas = {
  propertyData: z.object({ address }),
  driverLicense: z.object({ ...person, date_of_birth_str: dateOfBirth }),
  drivingRecordIq: z
    .object({
      ...person,
      date_of_birth_str: dateOfBirth.optional(),
      drivers_license: z.string().trim().min(4).max(30).optional(),
      drivers_license_state: state.optional(),
    })
    .refine(
      (q) =>
        q.date_of_birth_str !== undefined || (q.drivers_license !== undefined && q.drivers_license_state !== undefined),
      "give date_of_birth_str, or drivers_license with drivers_license_state",
    ),
  household: z.object({
    ...person,
    date_of_birth_str: dateOfBirth.optional(),
    lookup_vehicles: z.enum(["true", "false"]).optional(),
  }),
};
type Lookup = keyof typeof schemas;
const isLookup = (value: string): value is Lookup => value in schemas;

/** MM/DD/YYYY as the book writes dates of birth (YYYY-MM-DD). */
const isoBirth = (mdy: string | undefined) =>
  mdy ? `${mdy.slice(6)}-${mdy.slice(0, 2)}-${mdy.slice(3, 5)}` : undefined;

/** Seeded answers are relative to the seeding day, so they do not change as the clock moves. */
const anchor = (ctx: SandboxContext) =>
  ctx.options.now ?? new Date(Math.floor(ctx.clock.now().getTime() / 86_400_000) * 86_400_000);

type Answer = { status: number; body: unknown };
const invalid = (issues: z.core.$ZodIssue[]): Answer => ({
  status: 400,
  body: { error: "INVALID_INPUT", message: describeIssues(issues) },
});
const noRecord: Answer = { status: 404, body: { error: "NOT_FOUND" } };
const badAddress: Answer = {
  status: 400,
  body: {
    error: "INVALID_ADDRESS",
    message: "Give the address as one line: number and street, city, state and ZIP code.",
  },
};

function answer(ctx: SandboxContext, lookup: Lookup, query: Record<string, string>): Answer {
  const seed = ctx.options.seed;
  const now = anchor(ctx);
  switch (lookup) {
    case "propertyData": {
      const q = schemas[lookup].safeParse(query);
      if (!q.success) return badAddress;
      const place = parseAddressLine(q.data.address);
      if (!place) return badAddress;
      if (place.zip === "00000") return { status: 404, body: { error: "NO_PROPERTY_DATA" } };
      const known = findProperty(ctx.state.pulls.values(), place) ?? undefined;
      return { status: 200, body: propertyDataLookup(seed, now, place, undefined, known) };
    }
    case "driverLicense": {
      const q = schemas[lookup].safeParse(query);
      if (!q.success) return invalid(q.error.issues);
      const place = parseAddressLine(q.data.address);
      if (!place) return badAddress;
      if (q.data.last_name === "Nobody") return noRecord;
      const who = {
        first_name: q.data.first_name,
        middle_name: q.data.middle_name,
        last_name: q.data.last_name,
        date_of_birth_str: q.data.date_of_birth_str,
      };
      const known = findDriver(ctx.state.pulls.values(), {
        ...who,
        date_of_birth_str: isoBirth(who.date_of_birth_str),
      });
      return {
        status: 200,
        body: driverLicense(seed, { ...who, state: place.state }, known ? licenseOf(known) : undefined),
      };
    }
    case "drivingRecordIq": {
      const q = schemas[lookup].safeParse(query);
      if (!q.success) return invalid(q.error.issues);
      if (!parseAddressLine(q.data.address)) return badAddress;
      const { purpose: _purpose, employee_name: _employee, employee_job_function: _job, ...who } = q.data;
      return q.data.last_name === "Nobody" ? noRecord : { status: 200, body: drivingRecordIq(seed, now, who) };
    }
    case "household": {
      const q = schemas[lookup].safeParse(query);
      if (!q.success) return invalid(q.error.issues);
      const place = parseAddressLine(q.data.address);
      if (!place) return badAddress;
      if (q.data.last_name === "Nobody") return noRecord;
      const known = findHousehold(ctx.state.pulls.values(), place);
      const found = household(
        seed,
        now,
        { address: place, last_name: q.data.last_name },
        known ? { drivers: known.drivers.map(licenseOf), vehicles: known.vehicles.map(householdVehicle) } : undefined,
      );
      // lookup_vehicles=false asks for the drivers alone.
      return { status: 200, body: q.data.lookup_vehicles === "false" ? { ...found, vehicles: [] } : found };
    }
  }
}

export const enrichmentRoutes: Routes = async (ctx, { res, method, path, url }) => {
  const match = /^\/enrich\/([A-Za-z]+)$/.exec(path);
  if (!match) return false;
  const lookup = match[1] ?? "";
  if (!isLookup(lookup)) return fail(res, 404, "NOT_FOUND");
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  if (!teamState(ctx).plan.enrichment) return fail(res, 403, "FORBIDDEN");
  const result = answer(ctx, lookup, Object.fromEntries(url.searchParams));
  return send(res, result.status, result.body);
};
