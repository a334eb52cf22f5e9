import type { z } from "zod";
import { CLAIM_STATUSES, CLAIM_TYPES, INCIDENT_TYPES, LOSS_EVENT_TYPES, VIOLATION_TYPES } from "./enums-claims";
import { bool, cents, isoDate, looseResource, openEnum, requiredId, text } from "./tolerant";

// The account's loss and driving history: claims, driving records and commercial loss events
// (spec 2.14, 2.15, 2.17).

export const claimSchema = looseResource({
  claim_id: requiredId,
  policy_id: text,
  dwelling_id: text,
  vehicle_id: text,
  driver_id: text,
  /** Where the incident happened. */
  address_id: text,
  carrier_claim_identifier: text,
  date_occurred: isoDate,
  date_closed: isoDate,
  type: openEnum(CLAIM_TYPES, "claim type"),
  status: openEnum(CLAIM_STATUSES, "claim status"),
  payout_cents: cents,
  representative_name: text,
  representative_phone: text,
  representative_email: text,
});
export type Claim = z.output<typeof claimSchema>;

export const drivingRecordSchema = looseResource({
  driving_record_id: requiredId,
  driver_id: text,
  incident_date: isoDate,
  incident_type: openEnum(INCIDENT_TYPES, "incident type"),
  /** Only set when `incident_type` is VIOLATION. */
  violation_type: openEnum(VIOLATION_TYPES, "violation type"),
  is_at_fault: bool,
});
export type DrivingRecord = z.output<typeof drivingRecordSchema>;

export const lossEventSchema = looseResource({
  loss_event_id: requiredId,
  policy_id: text,
  date_of_occurrence: isoDate,
  date_of_claim: isoDate,
  type: openEnum(LOSS_EVENT_TYPES, "loss event type"),
  amount_paid_cents: cents,
  amount_reserved_cents: cents,
  /** Whether subrogation succeeded. */
  is_subrogation: bool,
  is_claim_open: bool,
});
export type LossEvent = z.output<typeof lossEventSchema>;
