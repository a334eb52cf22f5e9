import { z } from "zod";
import { isPlainObject, lenientArray, looseResource, requiredId, requiredText, stringList, text } from "./tolerant";

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

/** A registered webhook. The signing secret is only ever returned by the registration. */
export const webhookRegistrationSchema = looseResource({
  webhook_id: requiredId,
  hook_url: text,
  hookUrl: text,
  event_types: stringList,
  eventTypes: stringList,
  signing_secret: text,
});
export type WebhookRegistration = z.output<typeof webhookRegistrationSchema>;

/** GET /webhooks: a list, bare or as `{ webhooks }`. */
export const webhookListResponseSchema = z
  .transform((body: unknown) => (isPlainObject(body) && "webhooks" in body ? body.webhooks : body))
  .pipe(lenientArray(webhookRegistrationSchema, "webhook"));
