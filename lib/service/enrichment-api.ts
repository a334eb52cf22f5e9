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

// The enrichment look-ups (spec 2.18): a driver's license, a driving-record summary, a
// household and a property, by person or address. The paths and request shapes are not in
// the spec; these follow the team-scoped `/enrich/...` routes of the service's reference.
// Look-ups change nothing, so they are retried like reads.

const name = z.string().trim().min(1).max(100);
const addressSchema = z.object({
  number: z.string().trim().min(1).max(20).optional(),
  street: name,
  type: z.string().trim().min(1).max(20).optional(),
  sec_unit_type: z.string().trim().min(1).max(20).optional(),
  sec_unit_num: z.string().trim().min(1).max(20).optional(),
  city: name,
  state: z.string().regex(/^[A-Z]{2}$/, "Use a two-letter state code."),
  zip: z.string().regex(/^\d{5}(-\d{4})?$/, "Use a five-digit ZIP code."),
});
const driverLicenseQuery = z.object({ first_name: name, middle_name: name.optional(), last_name: name, date_of_birth_str: z.iso.date().optional(), address: addressSchema.optional() });
const drivingRecordQuery = z.object({ first_name: name, last_name: name, date_of_birth_str: z.iso.date(), drivers_license: z.string().trim().min(4).max(30), drivers_license_state: z.string().regex(/^[A-Z]{2}$/) });
const householdQuery = z.object({ address: addressSchema, last_name: name.optional() });
const propertyQuery = z.object({ address: addressSchema, owner_last_name: name.optional() });

async function lookup<S extends z.ZodType>(config: ServiceConfig, kind: string, body: unknown, schema: S): Promise<z.output<S>> {
  const response = await serviceRequest(config, { method: "POST", path: `/enrich/${kind}`, teamScoped: true, idempotent: true, body });
  return readAnswer(schema, response, `POST /enrich/${kind}`).value;
}

export async function lookUpDriverLicense(config: ServiceConfig, query: z.input<typeof driverLicenseQuery>): Promise<EnrichmentDriverLicense> {
  return lookup(config, "driver-license", driverLicenseQuery.parse(query), enrichmentDriverLicenseSchema);
}

export async function lookUpDrivingRecord(config: ServiceConfig, query: z.input<typeof drivingRecordQuery>): Promise<EnrichmentDrivingRecordIq> {
  return lookup(config, "driving-record-iq", drivingRecordQuery.parse(query), enrichmentDrivingRecordIqSchema);
}

export async function lookUpHousehold(config: ServiceConfig, query: z.input<typeof householdQuery>): Promise<EnrichmentHousehold> {
  return lookup(config, "household", householdQuery.parse(query), enrichmentHouseholdSchema);
}

export async function lookUpPropertyData(config: ServiceConfig, query: z.input<typeof propertyQuery>): Promise<EnrichmentPropertyData> {
  return lookup(config, "property-data", propertyQuery.parse(query), enrichmentPropertyDataSchema);
}
