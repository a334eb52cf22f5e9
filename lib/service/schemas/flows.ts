import { z } from "zod";
import { REGISTERED_WEBHOOK_EVENT_TYPES } from "./enums-service";
import { bool, enumList, isPlainObject, lenientArray, looseResource, requiredArray, requiredId, requiredText, stringList, text } from "./tolerant";

// Answers of the consent, whitelabel, carrier and webhook-registration calls (service-notes,
// "Consent and whitelabel flows" and "Webhooks"). Only the fields we act on are required.

/** GET /tos */
export const termsResponseSchema = looseResource({ terms_version: requiredText, terms_html: text });
export type TermsResponse = z.output<typeof termsResponseSchema>;

/** POST /consent */
export const consentResponseSchema = looseResource({ consent_token: requiredText });
export type ConsentResponse = z.output<typeof consentResponseSchema>;

/** POST /widget/pull/{id}/connect, /idvoptions, /idv: the outcome follows as AUTH_STATUS webhooks. */
export const pullIdResponseSchema = looseResource({ pull_id: requiredId });
export type PullIdResponse = z.output<typeof pullIdResponseSchema>;

/** A carrier the consumer can link, with the placeholders of its login fields. */
export const carrierSchema = looseResource({
  carrier_id: text,
  name: text,
  friendly_name: text,
  products: stringList,
  username_placeholder: text,
  password_placeholder: text,
  third_field_placeholder: text,
});
export type Carrier = z.output<typeof carrierSchema>;

/** GET /carriers: a list, bare or as `{ carriers }`. */
export const carrierListResponseSchema = z
  .transform((body: unknown) => (isPlainObject(body) && "carriers" in body ? body.carriers : body))
  .pipe(lenientArray(carrierSchema, "carrier"));

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
