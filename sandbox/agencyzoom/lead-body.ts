import { z } from "zod";

// A lead's body as AgencyZoom's documentation describes it (LeadDataRequest): the seven required
// fields and the optional ones, each of its type. The stand-in refuses what the real API would:
// a required field missing or blank, a wrong type ("12" for an id), an id it does not know. It
// is stricter in two ways, on purpose: a null for an optional field and an unknown field are
// refused too, so a client that passes here sends only documented fields, each with a value.

const text = (max: number) => z.string().trim().min(1, "cannot be blank").max(max, `at most ${max} characters`);
const id = z.int("must be an integer").positive("must be a positive integer");

export const leadBodySchema = z.strictObject({
  firstname: text(100),
  lastname: text(100).optional(),
  email: z.email("is not a valid email address").max(255),
  phone: text(30).optional(),
  secondaryEmail: z.email("is not a valid email address").max(255).optional(),
  secondaryPhone: text(30).optional(),
  leadSourceId: id,
  assignTo: id,
  csrId: id.optional(),
  country: z.string().regex(/^[A-Z]{2}$/, "must be a two-letter country code (US)"),
  pipelineId: id,
  stageId: id,
  notes: z.string().max(20_000, "at most 20000 characters").optional(),
  streetAddress: text(255).optional(),
  streetAddressLine2: text(255).optional(),
  city: text(100).optional(),
  state: text(50).optional(),
  zip: z
    .string()
    .regex(/^\d{5}(-\d{4})?$/, "must be a ZIP code (12345 or 12345-6789)")
    .optional(),
  agencyNumber: text(50).optional(),
  birthday: z.iso.date("must be a date, YYYY-MM-DD").optional(),
  maritalStatus: text(30).optional(),
  customFields: z
    .array(z.strictObject({ fieldName: text(100), fieldValue: z.string().max(2000) }))
    .max(100)
    .optional(),
});
export type LeadBody = z.output<typeof leadBodySchema>;

export type FieldError = { field: string; error: string };

/** zod's issues as AgencyZoom's `fieldErrors`: the field (`customFields.0.fieldName`) and what is wrong. */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const field = [...issue.path.map(String), ...(keys[0] ? [keys[0]] : [])].join(".") || "body";
    if (issue.code === "unrecognized_keys") return { field, error: "is not a field of a lead" };
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    const isNull = issue.code === "invalid_type" && issue.input === null;
    return { field, error: missing ? "is required" : isNull ? "cannot be null" : issue.message };
  });
}
