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

/** What a pull of this type is, when it is not a reading of a linked account; null for a reading. */
export function pullTypeNote(type: string | null): string | null {
  if (type === CONTACT_ME_TYPE)
    return "A new lead: the consumer asked to be contacted. The pull carries their contact details, not an insurance account.";
  if (type === SERVICING_TYPE)
    return "A servicing pull: the service changing a policy at the carrier for a client. It is shown under its servicing request and is not a reading of the account.";
  if (!isReadingType(type))
    return `${pullTypeLabel(type)}: kept and shown as it came. It is not a reading of a linked account, so it never replaces a household's policies.`;
  return null;
}

export const STANDS_ALONE_NOTE =
  "This pull is not joined to an account: the service sent no account identifier, so it stands alone rather than beside the account's other pulls.";

/**
 * A successful top-level reading that nothing joined to an account (lib/pulls/account-key.ts).
 * A failed link read no account, so it has none to be joined to.
 */
export function standsAlone(pull: {
  type: string | null;
  status: string | null;
  accountKey: string | null;
  parentPullId: string | null;
}): boolean {
  return (
    isReadingType(pull.type) && pull.status === "SUCCESS" && pull.accountKey === null && pull.parentPullId === null
  );
}
