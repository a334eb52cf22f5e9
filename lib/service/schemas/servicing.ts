import { z } from "zod";
import {
  isPlainObject,
  jsonObject,
  looseResource,
  openEnum,
  requiredArray,
  requiredId,
  requiredText,
  integer,
} from "./tolerant";

// Servicing (service-notes, "Servicing"): the service changes a policy at the carrier for the
// consumer; each change is a ServicingAction that waits for the consumer's confirmation.

export const SERVICING_ACTION_TYPES = ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE"] as const;
export type ServicingActionType = (typeof SERVICING_ACTION_TYPES)[number];

export const SERVICING_STATUSES = [
  "QUEUED",
  "IN_PROGRESS",
  "INTERNAL_ERROR",
  "PROVIDER_ERROR",
  "VALIDATION_ERROR",
  "WAITING_FOR_CONSUMER_CONFIRMATION",
  "SUBMITTING_CONFIRMATION",
  "UNCONFIRMED",
  "VERIFIED",
  "VERIFICATION_FAILED",
  "SUCCESS",
] as const;
export type ServicingStatus = (typeof SERVICING_STATUSES)[number];

/** Why the carrier refused an action (the service's reference lists these). */
export const SERVICING_VALIDATION_ERROR_TYPES = [
  "INVALID_POLICY_NUMBER",
  "INVALID_POLICY_TYPE",
  "INVALID_MORTGAGEE_NAME",
  "INVALID_MORTGAGEE_ADDRESS",
  "DUPLICATE_MORTGAGEE_NAME",
  "DUPLICATE_MORTGAGEE_TYPE",
  "INVALID_MORTGAGEE_TYPE",
  "POLICY_UNAVAILABLE_FOR_SERVICING",
  "VEHICLE_UNAVAILABLE_FOR_SERVICING",
  "REPLACING_VIN_NOT_FOUND",
  "PRIMARY_DRIVER_NOT_FOUND",
  "INVALID_VIN",
  "INVALID_VEHICLE_ACQUISITION_DATE",
  "REGISTERED_OWNER_NOT_FOUND",
  "INVALID_FINANCING_COMPANY",
  "INVALID_GARAGING_ADDRESS",
  "GARAGING_ADDRESS_OUT_OF_STATE",
  "CUSTOMER_SERVICE_REQUIRED",
  "FINANCING_COMPANY_NOT_FOUND",
  "DUPLICATE_FINANCING_COMPANY",
  "OTHER_PARTIES_TO_NOTIFY_NOT_SUPPORTED",
  "CANNOT_ADD_NEW_DRIVER",
  "CANNOT_ADD_NEW_REGISTERED_OWNER",
  "INVALID_SAFETY_RESTRAINT_DEVICE",
] as const;

export const servicingActionSchema = looseResource({
  servicing_action_id: requiredId,
  type: openEnum(SERVICING_ACTION_TYPES, "servicing action type"),
  /** As the request sent it; its fields depend on `type`. */
  payload: jsonObject,
  /** What the consumer is asked to confirm; its shape is not published. */
  confirmation_data: jsonObject,
  status: openEnum(SERVICING_STATUSES, "servicing status"),
  validation_error_type: openEnum(SERVICING_VALIDATION_ERROR_TYPES, "servicing validation error"),
});
export type ServicingAction = z.output<typeof servicingActionSchema>;

/** GET /servicings/:id: the action bare (as published) or as `{ servicing }`. */
export const servicingActionResponseSchema = z
  .transform((body: unknown) =>
    isPlainObject(body) && !("servicing_action_id" in body) && isPlainObject(body.servicing) ? body.servicing : body,
  )
  .pipe(servicingActionSchema);

/** GET /servicings */
export const servicingListResponseSchema = looseResource({
  total_servicings: integer,
  servicings: requiredArray(servicingActionSchema, "servicing action"),
});
export type ServicingListResponse = z.output<typeof servicingListResponseSchema>;

/** An id the answer cannot do without, in a list that must be there. */
const requiredIdList = z.array(requiredText);

/** POST /servicings: the new SERVICING pull, its whitelabel token, and one id per action in request order. */
export const servicingCreatedResponseSchema = looseResource({
  pull_id: requiredId,
  pull_jwt: requiredText,
  servicing_action_ids: requiredIdList,
});
export type ServicingCreatedResponse = z.output<typeof servicingCreatedResponseSchema>;
