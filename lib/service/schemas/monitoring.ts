import { z } from "zod";
import {
  MONITORING_CHANGE_SCHEMAS,
  MONITORING_CHANGE_TYPES,
  MONITORING_EVENT_TYPES,
  MONITORING_PULL_STATUSES,
  MONITORING_STATUSES,
} from "./enums-service";
import { PULL_STATUSES } from "./enums-pull";
import {
  bool,
  integer,
  isoDate,
  jsonObject,
  lenientArray,
  looseResource,
  openEnum,
  requiredArray,
  requiredId,
  text,
} from "./tolerant";

// Monitoring keeps a linked account refreshed (spec 2.19; fields and routes from the service's
// reference). Its events say what changed between two pulls of the same account.

export const monitoringSchema = looseResource({
  monitoring_id: requiredId,
  latest_pull_id: text,
  status: openEnum(MONITORING_STATUSES, "monitoring status"),
  next_pull_date: isoDate,
  /** An ISO 8601 duration ("P1M", "P45D"), kept as written. */
  interval: text,
  stop_after_date: isoDate,
});
export type Monitoring = z.output<typeof monitoringSchema>;

/** One refresh of a monitored account, as listed with `with_pulls=true`. */
export const monitoringPullSummarySchema = looseResource({
  pull_id: requiredId,
  status: openEnum(PULL_STATUSES, "pull status"),
  monitoring_status: openEnum(MONITORING_PULL_STATUSES, "monitoring pull status"),
  created_at: isoDate,
});
export type MonitoringPullSummary = z.output<typeof monitoringPullSummarySchema>;

/** An UPDATE carries only the changed keys in `before` and `after`. */
export const monitoringChangeSchema = looseResource({
  schema: openEnum(MONITORING_CHANGE_SCHEMAS, "changed resource"),
  type: openEnum(MONITORING_CHANGE_TYPES, "change type"),
  before: jsonObject,
  after: jsonObject,
});
export type MonitoringChange = z.output<typeof monitoringChangeSchema>;

/**
 * A document that came with an event. The service's reference sends `{ document_id }`; a bare
 * id string (an older form, and our sandbox's) is read as one, so every item has one shape.
 */
export const monitoringEventDocumentSchema = z
  .transform((value: unknown) => (typeof value === "string" ? { document_id: value } : value))
  .pipe(looseResource({ document_id: requiredId }));
export type MonitoringEventDocument = z.output<typeof monitoringEventDocumentSchema>;

export const monitoringEventSchema = looseResource({
  type: openEnum(MONITORING_EVENT_TYPES, "monitoring event type"),
  changes: lenientArray(monitoringChangeSchema, "change"),
  documents: lenientArray(monitoringEventDocumentSchema, "event document"),
});
export type MonitoringEvent = z.output<typeof monitoringEventSchema>;

/** GET /monitorings */
export const monitoringListResponseSchema = looseResource({
  monitorings_count: integer,
  monitorings: requiredArray(monitoringSchema, "monitoring"),
});
export type MonitoringListResponse = z.output<typeof monitoringListResponseSchema>;

/** POST, PATCH and DELETE /monitorings[/:id]: the monitoring as it now stands. */
export const monitoringResponseSchema = looseResource({ success: bool, monitoring: monitoringSchema });
export type MonitoringResponse = z.output<typeof monitoringResponseSchema>;

/** GET /monitorings/:id, with its refreshes when asked `with_pulls=true`. */
export const monitoringDetailResponseSchema = looseResource({
  monitoring: monitoringSchema,
  pulls: lenientArray(monitoringPullSummarySchema, "monitoring pull"),
});
export type MonitoringDetailResponse = z.output<typeof monitoringDetailResponseSchema>;

/** POST /monitorings/:id/refresh: the pull that was started. */
export const monitoringRefreshResponseSchema = looseResource({ pull_id: requiredId });
export type MonitoringRefreshResponse = z.output<typeof monitoringRefreshResponseSchema>;

/** GET /monitorings/:id/reconnectToken: a fresh token, and the hosted page that embeds it. */
export const monitoringReconnectTokenResponseSchema = looseResource({
  pull_id: requiredId,
  reconnect_url: text,
  reconnect_token: text,
});
export type MonitoringReconnectTokenResponse = z.output<typeof monitoringReconnectTokenResponseSchema>;

/** GET /monitorings/:id/events: what changed from the previous pull to the latest. */
export const monitoringEventsResponseSchema = looseResource({
  previous_pull_id: text,
  latest_pull_id: text,
  events: lenientArray(monitoringEventSchema, "monitoring event"),
});
export type MonitoringEventsResponse = z.output<typeof monitoringEventsResponseSchema>;
