// The enrichment look-ups in words, for the page, the audit trail and the command's answers.
// Pure and free of server code, so client forms can use the same words.

export const ENRICHMENT_KINDS = ["PROPERTY_DATA", "DRIVER_LICENSE", "DRIVING_RECORD"] as const;
export type EnrichmentKind = (typeof ENRICHMENT_KINDS)[number];

export const isEnrichmentKind = (value: unknown): value is EnrichmentKind =>
  typeof value === "string" && (ENRICHMENT_KINDS as readonly string[]).includes(value);

/** Look-ups about a person need a DPPA permissible purpose; property data does not. */
export const needsPurpose = (kind: EnrichmentKind) => kind !== "PROPERTY_DATA";

export const KIND_WORDS: Record<EnrichmentKind, string> = {
  PROPERTY_DATA: "property data",
  DRIVER_LICENSE: "driver licence",
  DRIVING_RECORD: "driving record",
};

/** ASKING: claimed, the call under way; ANSWERED and NO_DATA are kept; FAILED may be asked again. */
export const ENRICHMENT_STATUSES = ["ASKING", "ANSWERED", "NO_DATA", "FAILED"] as const;
export type EnrichmentStatus = (typeof ENRICHMENT_STATUSES)[number];

export const isKeptStatus = (status: string) => status === "ANSWERED" || status === "NO_DATA";

/** What a kept "no data" answer says, by kind. */
export function noDataWords(kind: EnrichmentKind): string {
  switch (kind) {
    case "PROPERTY_DATA":
      return "Public records have no property data for this address.";
    case "DRIVER_LICENSE":
      return "No driver licence was found for this driver.";
    case "DRIVING_RECORD":
      return "No driving record was found for this driver.";
  }
}

/**
 * Why a look-up failed, from the code kept with it (the service's error code, or ours for no
 * answer at all). Nothing is kept of a failed look-up: it may be asked again.
 */
export function failureWords(code: string | null | undefined): string {
  switch (code) {
    case "FORBIDDEN":
    case "SUBSCRIPTION_INACTIVE":
      return "The service refused: the agency's plan does not include this look-up, or its subscription is inactive. An admin can add enrichment to the plan; the look-up can then be asked again.";
    case "INVALID_ADDRESS":
      return "The service could not read the address. Check the address on the account; the look-up can be asked again.";
    case "INVALID_INPUT":
      return "The service refused the question as incomplete or malformed. Check the names, date of birth and address on the account.";
    case "UNAUTHORIZED":
      return "The service did not accept Coverdesk's credentials. An admin should check the service connection; the look-up can be asked again then.";
    case "TIMEOUT":
    case "NETWORK_ERROR":
      return "The service could not be reached. Nothing was kept; try again in a few minutes.";
    case "INVALID_RESPONSE":
      return "The service's answer could not be read. Nothing was kept; try again later.";
    default:
      return code && /^HTTP_5\d\d$|^INTERNAL_ERROR$/.test(code)
        ? "The service failed to answer. Nothing was kept; try again in a few minutes."
        : `The service refused the look-up${code ? ` (${code})` : ""}. Nothing was kept; it can be asked again.`;
  }
}

/** The driving record's status in words. */
export function drivingRecordWords(status: string | null | undefined): string {
  switch (status) {
    case "CLEAN":
      return "Clean: no violations on record";
    case "NO_EVIDENCE":
      return "No evidence either way";
    case "MINOR_VIOLATIONS":
      return "Minor violations on record";
    case "MAJOR_VIOLATIONS":
      return "Major violations on record";
    case null:
    case undefined:
    case "":
      return "No status given";
    default:
      return status;
  }
}

export const CONFIRM_MESSAGE = "Confirm the look-up first: each one is charged to the agency by the service.";
