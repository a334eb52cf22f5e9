import { humanize } from "@/lib/format";
import type { ServicingActionType } from "@/lib/service/schemas";

// A servicing request in plain words, for the agent's panel, the consumer's page and the audit
// trail. Pure: no database, no service.

export const SERVICING_ACTION_LABELS: Record<ServicingActionType, string> = {
  ADD_MORTGAGEE: "Add a mortgagee",
  EDIT_MORTGAGEE: "Change a mortgagee",
  REMOVE_MORTGAGEE: "Remove a mortgagee",
  ADD_VEHICLE: "Add a vehicle",
};

export const MORTGAGEE_POSITIONS = ["FIRST", "SECOND", "THIRD"] as const;
export type MortgageePosition = (typeof MORTGAGEE_POSITIONS)[number];

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : typeof value === "number" ? String(value) : null;

/** The change a request asks for, as a phrase that follows "to …": "add First Bank as the first mortgagee on policy HO-1". */
export function describeServicingChange(type: string, payload: unknown): string {
  const p = record(payload);
  const policy = str(p.carrier_policy_number) ?? "the policy";
  const position = (str(p.mortgagee_type) ?? "").toLowerCase();
  const loan = str(p.loan_number);
  const lender = `${str(p.name) ?? "the lender"} (${str(p.address) ?? "no address"}${loan ? `, loan ${loan}` : ""})`;
  switch (type) {
    case "ADD_MORTGAGEE":
      return `add ${lender} as the ${position || "next"} mortgagee on policy ${policy}`;
    case "EDIT_MORTGAGEE":
      return `change the ${position} mortgagee on policy ${policy} to ${lender}`;
    case "REMOVE_MORTGAGEE":
      return `remove the ${position} mortgagee from policy ${policy}`;
    case "ADD_VEHICLE": {
      const v = record(p.vehicle);
      const car = [str(v.model_year), str(v.make), str(v.model)].filter(Boolean).join(" ");
      return `add ${car ? `the ${car}` : "a vehicle"} (VIN ${str(v.vin) ?? "not given"}) to policy ${policy}`;
    }
    default:
      return `make a change the service calls ${humanize(type).toLowerCase()} on policy ${policy}`;
  }
}

/** The phrase as a sentence. */
export const sentence = (phrase: string) => `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;

/** Why the carrier refused, in words (the service's validation_error_type). */
const VALIDATION_WORDS: Record<string, string> = {
  INVALID_POLICY_NUMBER: "the carrier does not know that policy number",
  INVALID_POLICY_TYPE: "that kind of change cannot be made on this kind of policy",
  INVALID_MORTGAGEE_NAME: "the carrier did not accept the mortgagee's name",
  INVALID_MORTGAGEE_ADDRESS: "the carrier did not accept the mortgagee's address",
  DUPLICATE_MORTGAGEE_NAME: "that lender is already a mortgagee on the policy",
  DUPLICATE_MORTGAGEE_TYPE: "the policy already has a mortgagee in that position",
  INVALID_MORTGAGEE_TYPE: "the policy has no mortgagee in that position",
  POLICY_UNAVAILABLE_FOR_SERVICING: "the carrier does not allow changes to this policy online",
  VEHICLE_UNAVAILABLE_FOR_SERVICING: "the carrier does not allow this vehicle to be added online",
  INVALID_VIN: "the carrier did not accept the VIN",
  CUSTOMER_SERVICE_REQUIRED: "the carrier wants the change made through its customer service",
};

export function validationWords(type: string | null | undefined): string {
  if (!type) return "the carrier did not say why";
  return VALIDATION_WORDS[type] ?? `the carrier answered ${humanize(type).toLowerCase()}`;
}

export type StatusTone = "waiting" | "done" | "refused";

/** What the agent reads about a request. */
export type ServicingStatusFacts = {
  status: string | null;
  servicingActionId: string | null;
  consumerAnswer: string | null;
  error: string | null;
  validationErrorType: string | null;
  /** The consumer's link has expired. */
  expired?: boolean;
  /** Staff withdrew the consumer's link. */
  linkRevokedAt?: Date | null;
};

const BEFORE_THE_CONSUMER = [null, "QUEUED", "IN_PROGRESS", "WAITING_FOR_CONSUMER_CONFIRMATION"];

export function servicingStatusWords(row: ServicingStatusFacts): { label: string; tone: StatusTone } {
  if (!row.servicingActionId)
    return row.error
      ? { label: `Not sent: ${row.error}`, tone: "refused" }
      : { label: "Sending to the service…", tone: "waiting" };
  if (row.linkRevokedAt && row.consumerAnswer === null && BEFORE_THE_CONSUMER.includes(row.status))
    return {
      label: "The client's confirm link was withdrawn before they answered. Nothing was changed; ask again.",
      tone: "refused",
    };
  if (row.expired && row.consumerAnswer === null && BEFORE_THE_CONSUMER.includes(row.status))
    return {
      label: "The client's confirm link expired before they answered. Nothing was changed; ask again.",
      tone: "refused",
    };
  switch (row.status) {
    case null:
    case "QUEUED":
    case "IN_PROGRESS":
      return { label: "The service is preparing the change with the carrier.", tone: "waiting" };
    case "WAITING_FOR_CONSUMER_CONFIRMATION":
      return row.consumerAnswer === "CONFIRMED"
        ? { label: "The client confirmed; sending it to the carrier.", tone: "waiting" }
        : { label: "Waiting for the client to confirm on their page.", tone: "waiting" };
    case "SUBMITTING_CONFIRMATION":
      return { label: "The client confirmed; the carrier is making the change.", tone: "waiting" };
    case "SUCCESS":
      return { label: "Done: the carrier made the change.", tone: "done" };
    case "VERIFIED":
      return { label: "Done, and seen on the policy.", tone: "done" };
    case "VERIFICATION_FAILED":
      return {
        label: "The carrier reported it done, but the change could not be seen on the policy.",
        tone: "refused",
      };
    case "UNCONFIRMED":
      return { label: "The client declined. Nothing was changed.", tone: "refused" };
    case "VALIDATION_ERROR":
      return { label: `The carrier refused it: ${validationWords(row.validationErrorType)}.`, tone: "refused" };
    case "PROVIDER_ERROR":
      return { label: "The carrier's site failed. Nothing was changed; ask again later.", tone: "refused" };
    case "INTERNAL_ERROR":
      return { label: "The service failed. Nothing was changed; ask again later.", tone: "refused" };
    default:
      return { label: `The service says: ${humanize(row.status)}.`, tone: "waiting" };
  }
}
