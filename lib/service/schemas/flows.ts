import { z } from "zod";
import { REGISTERED_WEBHOOK_EVENT_TYPES } from "./enums-service";
import { describeValue } from "./problems";
import {
  bool,
  enumList,
  isPlainObject,
  looseResource,
  requiredArray,
  requiredId,
  requiredText,
  stringList,
  text,
} from "./tolerant";

// Answers of the consent, whitelabel, carrier and webhook-registration calls (service-notes,
// "Consent and whitelabel flows" and "Webhooks"). Only the fields we act on are required.

/** A terms version: an integer (`1`); an older answer's numeric string ("1") is read as the number. */
export const termsVersion = z.transform((value: unknown, ctx): number => {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d{1,9}$/.test(value.trim())) return Number(value.trim());
  ctx.addIssue({
    code: "custom",
    message: value === undefined ? "is missing" : `expected an integer version, got ${describeValue(value)}`,
  });
  return z.NEVER;
});

/** GET /tos: the version is sent back as an integer in the consent bodies. */
export const termsResponseSchema = looseResource({ terms_version: termsVersion, terms_html: text });
export type TermsResponse = z.output<typeof termsResponseSchema>;

/** POST /consent */
export const consentResponseSchema = looseResource({ consent_token: requiredText });
export type ConsentResponse = z.output<typeof consentResponseSchema>;

/**
 * POST /widget/pull/{id}/connect answers `{ pull: { pull_id }, shouldPoll }`, idvoptions and
 * idv `{ pull_id }`; either shape is read on all three. The outcome follows as AUTH_STATUS webhooks.
 */
export const pullIdResponseSchema = z
  .transform((body: unknown) =>
    isPlainObject(body) && !("pull_id" in body) && isPlainObject(body.pull) ? body.pull : body,
  )
  .pipe(looseResource({ pull_id: requiredId }));
export type PullIdResponse = z.output<typeof pullIdResponseSchema>;

/**
 * A carrier the consumer can link (GET /carriers), camelCase as published. `carrier_id` is what
 * the connect calls take as insurerName; `name` is for display. `thirdFieldPlaceholder` is null
 * when the carrier asks for no third value. Servicing actions are kept as sent: the service
 * may add kinds.
 */
export const carrierSchema = looseResource({
  carrier_id: requiredId,
  name: text,
  usernameFieldPlaceholder: text,
  thirdFieldPlaceholder: text,
  thirdFieldValidatorRgx: text,
  thirdFieldValidatorRgxFlags: text,
  thirdFieldValidatorError: text,
  color: text,
  homepageUrl: text,
  createAccountUrl: text,
  resetPasswordUrl: text,
  disablePasswordField: bool,
  servicingActions: stringList,
  products: stringList,
  subIssuerOf: text,
});
export type Carrier = z.output<typeof carrierSchema>;

/** GET /carriers: a bare array; `{ carriers }` is read too. A carrier without an id is dropped and reported. */
export const carrierListResponseSchema = z
  .transform((body: unknown) => (isPlainObject(body) && "carriers" in body ? body.carriers : body))
  .pipe(requiredArray(carrierSchema, "carrier"));

/** GET /carriers/{id}: the carrier, bare or as `{ carrier }`. */
export const carrierResponseSchema = z
  .transform((body: unknown) => (isPlainObject(body) && isPlainObject(body.carrier) ? body.carrier : body))
  .pipe(carrierSchema);

/** A registered webhook as GET /teams/{t}/webhooks lists it, signing secret included. */
export const webhookRegistrationSchema = looseResource({
  webhook_id: requiredId,
  signing_secret: text,
  url: text,
  is_sandbox: bool,
  is_active: bool,
  event_types: enumList(REGISTERED_WEBHOOK_EVENT_TYPES, "webhook event type"),
});
export type WebhookRegistration = z.output<typeof webhookRegistrationSchema>;

/** GET /webhooks: `{ webhooks: [...] }`; a bare list is read too. */
export const webhookListResponseSchema = z
  .transform((body: unknown) => (isPlainObject(body) && "webhooks" in body ? body.webhooks : body))
  .pipe(requiredArray(webhookRegistrationSchema, "webhook"));

/** POST /webhooks: the new webhook's id and the secret its deliveries are signed with. */
export const webhookCreatedResponseSchema = looseResource({ webhook_id: requiredId, signing_secret: requiredText });
export type WebhookCreatedResponse = z.output<typeof webhookCreatedResponseSchema>;
