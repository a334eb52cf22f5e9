import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer } from "./read-answer";
import {
  enrichmentDriverLicenseSchema,
  enrichmentDrivingRecordIqSchema,
  enrichmentHouseholdSchema,
  enrichmentPropertyDataSchema,
  type EnrichmentDriverLicense,
  type EnrichmentDrivingRecordIq,
  type EnrichmentHousehold,
  type EnrichmentPropertyData,
} from "./schemas";

// The enrichment look-ups (service-notes, "Other team routes"): a property by address, and a
// driver's license, a driving-record summary and a household by person. Each is a GET on
// `/teams/{t}/enrich/{kind}` with the question as query parameters. The address is one line;
// dates of birth are MM/DD/YYYY; the person look-ups must say why they are made (the
// permissible-purpose fields). Look-ups change nothing, so they are retried like reads.

const name = z.string().trim().min(1).max(100);
const dateOfBirth = z
  .string()
  .trim()
  .regex(/^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/, "Give the date of birth as MM/DD/YYYY.");
/** One line: "1200 Maple Ave, Austin, TX 78701". */
const address = z.string().trim().min(1).max(300);
const person = {
  first_name: name,
  middle_name: name.optional(),
  last_name: name,
  address,
  /** Why the agency looks the person up, and who does: required by the records' permissible-purpose rules. */
  purpose: z.string().trim().min(1).max(100),
  employee_name: z.string().trim().min(1).max(200),
  employee_job_function: z.string().trim().min(1).max(200),
};
const propertyQuery = z.object({ address });
const driverLicenseQuery = z.object({ ...person, date_of_birth_str: dateOfBirth });
const drivingRecordQuery = z
  .object({
    ...person,
    date_of_birth_str: dateOfBirth.optional(),
    drivers_license: z.string().trim().min(4).max(30).optional(),
    drivers_license_state: z
      .string()
      .regex(/^[A-Z]{2}$/, "Use a two-letter state code.")
      .optional(),
  })
  .refine(
    (q) =>
      q.date_of_birth_str !== undefined || (q.drivers_license !== undefined && q.drivers_license_state !== undefined),
    "Give a date of birth, or a license number with its state.",
  );
const householdQuery = z.object({
  ...person,
  date_of_birth_str: dateOfBirth.optional(),
  lookup_vehicles: z.boolean().optional(),
});

export type PropertyDataQuery = z.input<typeof propertyQuery>;
export type DriverLicenseQuery = z.input<typeof driverLicenseQuery>;
export type DrivingRecordQuery = z.input<typeof drivingRecordQuery>;
export type HouseholdQuery = z.input<typeof householdQuery>;

async function lookup<S extends z.ZodType>(
  config: ServiceConfig,
  kind: string,
  query: Record<string, string | boolean | undefined>,
  schema: S,
): Promise<z.output<S>> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: `/enrich/${kind}`,
    teamScoped: true,
    idempotent: true,
    query,
  });
  return readAnswer(schema, response, `GET /enrich/${kind}`).value;
}

export async function lookUpPropertyData(
  config: ServiceConfig,
  query: PropertyDataQuery,
): Promise<EnrichmentPropertyData> {
  return lookup(config, "propertyData", propertyQuery.parse(query), enrichmentPropertyDataSchema);
}

export async function lookUpDriverLicense(
  config: ServiceConfig,
  query: DriverLicenseQuery,
): Promise<EnrichmentDriverLicense> {
  return lookup(config, "driverLicense", driverLicenseQuery.parse(query), enrichmentDriverLicenseSchema);
}

export async function lookUpDrivingRecord(
  config: ServiceConfig,
  query: DrivingRecordQuery,
): Promise<EnrichmentDrivingRecordIq> {
  return lookup(config, "drivingRecordIq", drivingRecordQuery.parse(query), enrichmentDrivingRecordIqSchema);
}

export async function lookUpHousehold(config: ServiceConfig, query: HouseholdQuery): Promise<EnrichmentHousehold> {
  return lookup(config, "household", householdQuery.parse(query), enrichmentHouseholdSchema);
}
