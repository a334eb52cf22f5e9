// The enumerations of monitoring and webhooks (spec 2.19, 3.3, 6 and the service notes).

export const MONITORING_STATUSES = ["ACTIVE", "STOPPED"] as const;
export type MonitoringStatus = (typeof MONITORING_STATUSES)[number];

/** Where each refresh of a monitored account stands. */
export const MONITORING_PULL_STATUSES = ["PROCESSING", "WAITING_FOR_USER", "COMPLETED", "EXPIRED"] as const;
export type MonitoringPullStatus = (typeof MONITORING_PULL_STATUSES)[number];

export const MONITORING_EVENT_TYPES = [
  "RENEWAL",
  "EXPIRED",
  "CANCELED",
  "NEW_BUSINESS",
  "REINSTATED",
  "ENDORSEMENT",
  "CLAIM_OPENED",
  "CLAIM_CLOSED",
  "CLAIM_REMOVED",
  "DRIVINGRECORD_ADDED",
  "DRIVINGRECORD_REMOVED",
] as const;
export type MonitoringEventType = (typeof MONITORING_EVENT_TYPES)[number];

/** The documented resources a change can touch (BENEFICIARY from the service's reference); more may come. */
export const MONITORING_CHANGE_SCHEMAS = [
  "POLICY",
  "VEHICLE",
  "DRIVER",
  "VEHICLEDRIVER",
  "VEHICLECOVERAGE",
  "DWELLING",
  "DWELLINGCOVERAGE",
  "CLAIM",
  "DRIVINGRECORD",
  "BENEFICIARY",
] as const;
export type MonitoringChangeSchema = (typeof MONITORING_CHANGE_SCHEMAS)[number];

export const MONITORING_CHANGE_TYPES = ["CREATE", "UPDATE", "DELETE"] as const;
export type MonitoringChangeType = (typeof MONITORING_CHANGE_TYPES)[number];

export const WEBHOOK_EVENT_TYPES = [
  "COMPLETE",
  "POLICIES_AVAILABLE",
  "POLICY_AVAILABLE",
  "AUTH_STATUS",
  "ERROR",
  "MONITORING_RECONNECT",
  "DATA_UPDATED",
  "MONITORING_EVENTS",
  "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The event types a webhook registration can set through the API (service-notes, "Webhooks");
 * ERROR, the monitoring events, DATA_UPDATED and servicing are enabled on the service's dashboard.
 */
export const API_SETTABLE_WEBHOOK_EVENT_TYPES = [
  "COMPLETE",
  "POLICIES_AVAILABLE",
  "POLICY_AVAILABLE",
  "AUTH_STATUS",
  "VALIDATION_COMPLETE",
] as const;
export type ApiSettableWebhookEventType = (typeof API_SETTABLE_WEBHOOK_EVENT_TYPES)[number];

/** Every event type a listed registration may carry: the delivered ones and the API-settable ones. */
export const REGISTERED_WEBHOOK_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, "VALIDATION_COMPLETE"] as const;

/** AUTH_STATUS `data.auth_status` (spec 3.3). */
export const AUTH_STATUSES = [
  "NOT_AUTHENTICATED",
  "IDENTITY_VERIFICATION_OPTIONS",
  "IDENTITY_VERIFICATION",
  "SUCCESS",
] as const;
export type AuthStatus = (typeof AUTH_STATUSES)[number];

/** MONITORING_RECONNECT `data.auth_status`: only the states that need the consumer. */
export const RECONNECT_AUTH_STATUSES = [
  "NOT_AUTHENTICATED",
  "IDENTITY_VERIFICATION_OPTIONS",
  "IDENTITY_VERIFICATION",
] as const;
export type ReconnectAuthStatus = (typeof RECONNECT_AUTH_STATUSES)[number];

/** ERROR `data.type`. */
export const WEBHOOK_ERROR_TYPES = ["PROVIDER_ERROR", "INTERNAL_ERROR"] as const;
export type WebhookErrorType = (typeof WEBHOOK_ERROR_TYPES)[number];
