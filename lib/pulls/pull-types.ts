// What each type of pull is, for storage and display alike (pure: pages import it too). The
// spec: `account_identifier` is "stable for an account holder across PULLING_DATA pulls", so
// only those (and pulls that name no type, as older payloads do) are readings of an account.

export const READING_TYPE = "PULLING_DATA";

/** Whether a pull of this type reads an account's policies (see lib/pulls/account-key.ts). */
export function isReadingType(type: string | null): boolean {
  return type === null || type === READING_TYPE;
}

/** A consumer who asked to be contacted: a new lead, with contact details and no account data. */
export const CONTACT_ME_TYPE = "CONTACT_ME";

/** A change at the carrier made for a client: shown under its servicing request, never listed. */
export const SERVICING_TYPE = "SERVICING";

const TYPE_LABELS: Record<string, string> = {
  PULLING_DATA: "Linked account",
  SERVICING: "Servicing",
  DOCUMENT_UPLOAD: "Uploaded documents",
  DOCUMENT_PARSING: "Parsed documents",
  MANUAL_ENTRY: "Manual entry",
  POLICY_LOOKUP: "Policy lookup",
  AGENT: "Agent entry",
  CONTACT_ME: "Contact request (new lead)",
};

/** The type in words; one the spec does not list exactly as it came. */
export function pullTypeLabel(type: string | null): string {
  if (type === null) return TYPE_LABELS[READING_TYPE] as string;
  return TYPE_LABELS[type] ?? type;
}
