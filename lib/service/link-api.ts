import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer } from "./read-answer";
import {
  consentResponseSchema,
  pullIdResponseSchema,
  pullSessionResponseSchema,
  termsResponseSchema,
  type PullSessionResponse,
  type TermsResponse,
} from "./schemas";

// The consumer's side of a link, driven from our server (service-notes, "Consent and whitelabel
// flows"): terms, consent, connect, the identity-verification steps, and reconnecting a
// monitored account. None has a team prefix. None is retried: each one moves a login forward.

const credentialsSchema = z.object({
  /** Always a carrier id of GET /carriers (`statefarm`), never a display name. */
  insurerName: z.string().min(1).max(200),
  insurerUsername: z.string().min(1).max(500),
  insurerPassword: z.string().max(500).optional(),
  insurerThirdField: z.string().max(500).optional(),
});
export type CarrierCredentials = z.input<typeof credentialsSchema>;

const consentSchema = z.object({
  device_identifier: z.string().min(1).max(200),
  /** The integer of GET /tos; a numeric string is sent as the integer it names. */
  terms_version: z.union([
    z.number().int().min(0),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ]),
  consent_language: z.string().min(1).max(5_000),
});
export type ConsentInput = z.input<typeof consentSchema>;

const consentAndConnectSchema = consentSchema.extend(credentialsSchema.shape).extend({
  public_alias: z.string().min(1).max(200),
  /** An object, which the service serves back on the pull and its webhooks. */
  meta_data: z.record(z.string(), z.unknown()).optional(),
});

const pullIdSchema = z.uuid();
const pullJwtSchema = z.string().min(1).max(10_000);
const widgetPath = (pullId: string, step: string) =>
  `/widget/pull/${encodeURIComponent(pullIdSchema.parse(pullId))}/${step}`;

export async function getTerms(config: ServiceConfig): Promise<TermsResponse> {
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/tos",
    teamScoped: false,
    idempotent: true,
    auth: { kind: "none" },
  });
  return readAnswer(termsResponseSchema, response, "GET /tos").value;
}

export async function giveConsent(config: ServiceConfig, input: ConsentInput): Promise<string> {
  const body = consentSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/consent",
    teamScoped: false,
    idempotent: false,
    body,
  });
  return readAnswer(consentResponseSchema, response, "POST /consent").value.consent_token;
}

/** Consent and first login in one call; the login's progress arrives as AUTH_STATUS webhooks. */
export async function consentAndConnect(
  config: ServiceConfig,
  input: z.input<typeof consentAndConnectSchema>,
): Promise<PullSessionResponse> {
  const body = consentAndConnectSchema.parse(input);
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/widget/pull/consentAndConnect",
    teamScoped: false,
    idempotent: false,
    body,
  });
  return readAnswer(pullSessionResponseSchema, response, "POST /widget/pull/consentAndConnect").value;
}

/** Trades the reconnect token of a MONITORING_RECONNECT webhook for a pull session. */
export async function exchangeReconnectToken(
  config: ServiceConfig,
  reconnectToken: string,
): Promise<PullSessionResponse> {
  const body = { reconnect_token: z.string().min(1).max(10_000).parse(reconnectToken) };
  const response = await serviceRequest(config, {
    method: "POST",
    path: "/widget/pull/reconnectToken",
    teamScoped: false,
    idempotent: false,
    body,
    auth: { kind: "client-headers" },
  });
  return readAnswer(pullSessionResponseSchema, response, "POST /widget/pull/reconnectToken").value;
}

/** connect answers `{ pull: { pull_id }, shouldPoll }`, the other steps `{ pull_id }`: the schema reads both. */
async function pullStep(
  config: ServiceConfig,
  pullId: string,
  pullJwt: string,
  step: string,
  body: unknown,
): Promise<string> {
  const response = await serviceRequest(config, {
    method: "POST",
    path: widgetPath(pullId, step),
    teamScoped: false,
    idempotent: false,
    body,
    auth: { kind: "pull-jwt", token: pullJwtSchema.parse(pullJwt) },
  });
  return readAnswer(pullIdResponseSchema, response, `POST /widget/pull/:id/${step}`).value.pull_id;
}

export async function connectPull(
  config: ServiceConfig,
  session: PullSessionResponse,
  credentials: CarrierCredentials,
): Promise<string> {
  return pullStep(config, session.pull_id, session.pull_jwt, "connect", credentialsSchema.parse(credentials));
}

export async function chooseVerificationOption(
  config: ServiceConfig,
  session: PullSessionResponse,
  optionKey: string,
): Promise<string> {
  return pullStep(config, session.pull_id, session.pull_jwt, "idvoptions", {
    optionKey: z.string().min(1).max(200).parse(optionKey),
  });
}

export async function submitVerificationCode(
  config: ServiceConfig,
  session: PullSessionResponse,
  mfaValue: string,
): Promise<string> {
  return pullStep(config, session.pull_id, session.pull_jwt, "idv", {
    mfaValue: z.string().trim().min(1).max(50).parse(mfaValue),
  });
}
