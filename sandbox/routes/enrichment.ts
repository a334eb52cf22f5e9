import { z } from "zod";
import { describeIssues, type Routes, type SandboxContext } from "../context";
import { driverLicense, drivingRecordIq, household, householdVehicle, propertyDataLookup } from "../data/enrichment";
import { findDriver, findHousehold, findProperty, licenseOf } from "../data/records";
import { fail, readJson, send } from "../http";

// Team routes for the enrichment look-ups (spec 2.18), each a POST with the question as JSON
// and the resource as the answer:
//   /enrich/driver-license      person → EnrichmentDriverLicense
//   /enrich/driving-record-iq   licensed driver → EnrichmentDrivingRecordIq
//   /enrich/household           address → EnrichmentHousehold
//   /enrich/property-data       address → EnrichmentPropertyData
// A person or address the seeded book knows is answered from that account (records.ts); any
// other question gets a plausible answer, the same each time it is asked.
// Scenario for "no record": last name "Nobody" or zip "00000" answers 404 NOT_FOUND.

const name = z.string().trim().min(1).max(100);
const date = z.iso.date();
const state = z.string().regex(/^[A-Z]{2}$/, "a two-letter state code");
const zip = z.string().regex(/^\d{5}(-\d{4})?$/, "a five-digit ZIP code");

const placeSchema = z.object({
  number: z.string().trim().min(1).max(20).optional(),
  prefix: z.string().min(1).max(2).optional(),
  street: name,
  type: z.string().trim().min(1).max(20).optional(),
  sec_unit_type: z.string().trim().min(1).max(20).optional(),
  sec_unit_num: z.string().trim().min(1).max(20).optional(),
  city: name,
  state,
  zip,
});

const schemas = {
  "driver-license": z.object({ first_name: name, middle_name: name.optional(), last_name: name, date_of_birth_str: date.optional(), address: placeSchema.optional() }),
  "driving-record-iq": z.object({ first_name: name, last_name: name, date_of_birth_str: date, drivers_license: z.string().trim().min(4).max(30), drivers_license_state: state }),
  household: z.object({ address: placeSchema, last_name: name.optional() }),
  "property-data": z.object({ address: placeSchema, owner_last_name: name.optional() }),
};
type Lookup = keyof typeof schemas;
const isLookup = (value: string): value is Lookup => value in schemas;

/** Seeded answers are relative to the seeding day, so they do not change as the clock moves. */
const anchor = (ctx: SandboxContext) => ctx.options.now ?? new Date(Math.floor(ctx.clock.now().getTime() / 86_400_000) * 86_400_000);

function answer(ctx: SandboxContext, lookup: Lookup, body: unknown): { status: number; body: unknown } {
  const seed = ctx.options.seed;
  const now = anchor(ctx);
  const invalid = (issues: z.core.$ZodIssue[]) => ({ status: 400, body: { error: "INVALID_INPUT", message: describeIssues(issues) } });
  const noRecord = { status: 404, body: { error: "NOT_FOUND" } };
  switch (lookup) {
    case "driver-license": {
      const q = schemas[lookup].safeParse(body);
      if (!q.success) return invalid(q.error.issues);
      if (q.data.last_name === "Nobody") return noRecord;
      const { address, ...who } = q.data;
      const known = findDriver(ctx.state.pulls.values(), who);
      return { status: 200, body: driverLicense(seed, { ...who, state: address?.state }, known ? licenseOf(known) : undefined) };
    }
    case "driving-record-iq": {
      const q = schemas[lookup].safeParse(body);
      if (!q.success) return invalid(q.error.issues);
      return q.data.last_name === "Nobody" ? noRecord : { status: 200, body: drivingRecordIq(seed, now, q.data) };
    }
    case "household": {
      const q = schemas[lookup].safeParse(body);
      if (!q.success) return invalid(q.error.issues);
      if (q.data.address.zip === "00000") return noRecord;
      const known = findHousehold(ctx.state.pulls.values(), q.data.address);
      return { status: 200, body: household(seed, now, q.data, known ? { drivers: known.drivers.map(licenseOf), vehicles: known.vehicles.map(householdVehicle) } : undefined) };
    }
    case "property-data": {
      const q = schemas[lookup].safeParse(body);
      if (!q.success) return invalid(q.error.issues);
      if (q.data.address.zip === "00000") return noRecord;
      const known = findProperty(ctx.state.pulls.values(), q.data.address) ?? undefined;
      return { status: 200, body: propertyDataLookup(seed, now, q.data.address, q.data.owner_last_name, known) };
    }
  }
}

export const enrichmentRoutes: Routes = async (ctx, { req, res, method, path }) => {
  const match = /^\/enrich\/([a-z-]+)$/.exec(path);
  if (!match) return false;
  const lookup = match[1] ?? "";
  if (!isLookup(lookup)) return fail(res, 404, "NOT_FOUND");
  if (method !== "POST") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const body = await readJson(req);
  if (!body.ok) return fail(res, 400, "INVALID_INPUT", "The body is not valid JSON.");
  const result = answer(ctx, lookup, body.value);
  return send(res, result.status, result.body);
};
