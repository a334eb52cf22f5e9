import { z } from "zod";
import { AUTH_STATUSES, RECONNECT_AUTH_STATUSES, WEBHOOK_ERROR_TYPES, WEBHOOK_EVENT_TYPES } from "./enums-service";
import { POLICY_TYPES } from "./enums-policy";
import { PULL_STATUSES } from "./enums-pull";
import { monitoringEventSchema } from "./monitoring";
import { atPath, describeIssues, describeValue, parseTolerant, reportProblem, type TolerantResult } from "./problems";
import {
  bool,
  constant,
  integer,
  isKnownValue,
  isPlainObject,
  lenient,
  lenientArray,
  looseResource,
  metaData,
  openEnum,
  requiredId,
  requiredText,
  text,
} from "./tolerant";

// Webhook bodies: a common envelope plus an event-specific `data`. Bodies are notifications
// (the pull is always re-fetched), and the service adds event types over time, so an unknown
// event_type is kept as a generic event rather than rejected.

/** Present only when the pull belongs to a monitored account. */
export const webhookMonitoringSchema = looseResource({ initial_pull_id: text, monitoring_id: text });
export type WebhookMonitoring = z.output<typeof webhookMonitoringSchema>;

const commonFields = {
  widget_id: text,
  team_id: text,
  status: openEnum(PULL_STATUSES, "pull status"),
  meta_data: metaData,
  account_identifier: text,
  is_monitored: bool,
  monitoring: lenient(webhookMonitoringSchema, "an object"),
};

/** `data` is always an object to read from: absent reads as `{}`, so its fields read as null. */
function eventData<S extends z.ZodType>(schema: S) {
  return z.transform((value: unknown, ctx): z.output<S> => {
    if (value !== undefined && value !== null && !isPlainObject(value)) {
      reportProblem("wrong_type", `expected an object, got ${describeValue(value)}`, value);
    }
    const result = schema.safeParse(isPlainObject(value) ? value : {});
    if (result.success) return result.data;
    ctx.addIssue({ code: "custom", message: describeIssues(result.error) });
    return z.NEVER;
  });
}

function knownEventFields<const T extends string, S extends z.ZodType>(eventType: T, data: S) {
  return {
    ...commonFields,
    pull_id: requiredId,
    event_type: constant(eventType),
    is_known_event: constant(true),
    data: eventData(data),
  };
}

function knownEvent<const T extends string, S extends z.ZodType>(eventType: T, data: S) {
  return looseResource(knownEventFields(eventType, data));
}

export const emptyEventDataSchema = looseResource({});

export const completeWebhookSchema = knownEvent("COMPLETE", emptyEventDataSchema);
export type CompleteWebhook = z.output<typeof completeWebhookSchema>;

export const policiesAvailableWebhookSchema = knownEvent("POLICIES_AVAILABLE", emptyEventDataSchema);
export type PoliciesAvailableWebhook = z.output<typeof policiesAvailableWebhookSchema>;

/** Sent once per policy; deprecated by the service in favour of POLICIES_AVAILABLE. */
export const policyAvailableDataSchema = looseResource({
  policy_id: text,
  policy_type: openEnum(POLICY_TYPES, "policy type"),
});
export const policyAvailableWebhookSchema = knownEvent("POLICY_AVAILABLE", policyAvailableDataSchema);
export type PolicyAvailableWebhook = z.output<typeof policyAvailableWebhookSchema>;

/** A two-factor method the consumer can choose; `key` is what POST /idvoptions takes. */
export type IdvOption = { key: string; label: string };

const OPTION_KEYS = ["key", "optionKey", "option_key", "value", "id"] as const;
const OPTION_LABELS = ["label", "text", "name", "description", "value", "displayValue", "display_value"] as const;

function firstText(item: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = item[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

function idvOption(item: unknown): IdvOption | null {
  if (typeof item === "string" && item !== "") return { key: item, label: item };
  if (!isPlainObject(item)) return null;
  const key = firstText(item, OPTION_KEYS);
  return key === null ? null : { key, label: firstText(item, OPTION_LABELS) ?? key };
}

/**
 * The options of an IDENTITY_VERIFICATION_OPTIONS status. Their published shape is loose, so
 * a list (of strings or of `{key, label}`-like objects) and a `{ key: label }` map are read.
 */
function idvOptions(value: unknown): IdvOption[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown, index) => {
      const option = idvOption(item);
      if (option === null)
        reportProblem("dropped_item", "option dropped: expected a string or an object with a key", item, `[${index}]`);
      return option === null ? [] : [option];
    });
  }
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, label]): IdvOption[] => {
      if (typeof label === "string") return [{ key, label }];
      if (isPlainObject(label)) return [{ key, label: firstText(label, OPTION_LABELS) ?? key }];
      reportProblem("dropped_item", "option dropped: expected a label", label, key);
      return [];
    });
  }
  reportProblem("wrong_type", `expected a list of options, got ${describeValue(value)}`, value);
  return [];
}

/** Reads the identity-verification options a status may carry, under either published name. */
function withIdvOptions<T extends Record<string, unknown>>(data: T): T & { options: IdvOption[] } {
  const source = "options" in data ? "options" : "mfa_options" in data ? "mfa_options" : "options";
  return { ...data, options: atPath(source, () => idvOptions(data[source])) };
}

export const authStatusDataSchema = looseResource({
  auth_status: openEnum(AUTH_STATUSES, "auth status"),
  /** A carrier-specific login error; null means "show your default bad-credentials message". */
  login_error_message: text,
  /** Increases with every auth state change, so a late delivery can be recognised and ignored. */
  sequence: integer,
}).transform(withIdvOptions);
export type AuthStatusData = z.output<typeof authStatusDataSchema>;

/** The sequence may come in `data` or beside it; `data.sequence` holds it either way. */
export const authStatusWebhookSchema = looseResource({
  ...knownEventFields("AUTH_STATUS", authStatusDataSchema),
  sequence: integer,
}).transform((body) => ({ ...body, data: { ...body.data, sequence: body.data.sequence ?? body.sequence } }));
export type AuthStatusWebhook = z.output<typeof authStatusWebhookSchema>;

/** An INTERNAL_ERROR pull may still complete later; a PROVIDER_ERROR one will not. */
export const errorEventDataSchema = looseResource({ type: openEnum(WEBHOOK_ERROR_TYPES, "error type") });
export const errorWebhookSchema = knownEvent("ERROR", errorEventDataSchema);
export type ErrorWebhook = z.output<typeof errorWebhookSchema>;

/** `reconnect_url` serves hosted reconnection; `reconnect_token` serves whitelabel flows. */
export const monitoringReconnectDataSchema = looseResource({
  auth_status: openEnum(RECONNECT_AUTH_STATUSES, "reconnect auth status"),
  reconnect_url: text,
  reconnect_token: text,
}).transform(withIdvOptions); // a request stopped at IDENTITY_VERIFICATION_OPTIONS carries them
export const monitoringReconnectWebhookSchema = knownEvent("MONITORING_RECONNECT", monitoringReconnectDataSchema);
export type MonitoringReconnectWebhook = z.output<typeof monitoringReconnectWebhookSchema>;

/** The shape of an update is not published; each is kept as received. */
export const dataUpdatedDataSchema = looseResource({ updates: lenientArray(z.unknown(), "update") });
export const dataUpdatedWebhookSchema = knownEvent("DATA_UPDATED", dataUpdatedDataSchema);
export type DataUpdatedWebhook = z.output<typeof dataUpdatedWebhookSchema>;

export const monitoringEventsWebhookSchema = knownEvent("MONITORING_EVENTS", monitoringEventSchema);
export type MonitoringEventsWebhook = z.output<typeof monitoringEventsWebhookSchema>;

/** A servicing action waits for the consumer to confirm it (POST /widget/pull/{pullId}/servicingAction). */
export const servicingWaitingDataSchema = looseResource({ servicing_action_id: text });
export const servicingWaitingWebhookSchema = knownEvent(
  "SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION",
  servicingWaitingDataSchema,
);
export type ServicingWaitingWebhook = z.output<typeof servicingWaitingWebhookSchema>;

/** An event type this code does not know yet: the envelope is read, `data` kept as received. */
export const unknownWebhookSchema = looseResource({
  ...commonFields,
  pull_id: text,
  event_type: requiredText,
  is_known_event: constant(false),
  data: lenient(z.unknown(), "anything"),
});
export type UnknownWebhook = z.output<typeof unknownWebhookSchema>;

const knownWebhookSchemas = {
  COMPLETE: completeWebhookSchema,
  POLICIES_AVAILABLE: policiesAvailableWebhookSchema,
  POLICY_AVAILABLE: policyAvailableWebhookSchema,
  AUTH_STATUS: authStatusWebhookSchema,
  ERROR: errorWebhookSchema,
  MONITORING_RECONNECT: monitoringReconnectWebhookSchema,
  DATA_UPDATED: dataUpdatedWebhookSchema,
  MONITORING_EVENTS: monitoringEventsWebhookSchema,
  SERVICING_WAITING_FOR_CONSUMER_CONFIRMATION: servicingWaitingWebhookSchema,
} as const satisfies Record<(typeof WEBHOOK_EVENT_TYPES)[number], z.ZodType>;

export type KnownWebhook = z.output<(typeof knownWebhookSchemas)[keyof typeof knownWebhookSchemas]>;
/** Narrow on `is_known_event` first; then `event_type` discriminates the known events. */
export type WebhookEvent = KnownWebhook | UnknownWebhook;

/** Any webhook body, dispatched on `event_type`. Fails only without an object and an event type. */
export const webhookEventSchema = z.transform((body: unknown, ctx): WebhookEvent => {
  if (!isPlainObject(body)) {
    ctx.addIssue({ code: "custom", message: `a webhook body must be an object, got ${describeValue(body)}` });
    return z.NEVER;
  }
  const eventType = body.event_type;
  const schema: z.ZodType<WebhookEvent> = isKnownValue(WEBHOOK_EVENT_TYPES, eventType)
    ? knownWebhookSchemas[eventType]
    : unknownWebhookSchema;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

export function parseWebhookEvent(body: unknown): TolerantResult<WebhookEvent> {
  return parseTolerant(webhookEventSchema, body);
}
