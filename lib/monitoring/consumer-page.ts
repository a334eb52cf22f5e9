import "server-only";
import type { Db } from "@/db/types";
import type { ServiceConfig } from "@/lib/service/client";
import type { FormState } from "@/lib/core/form-state";
import { carrierLogin, matchCarrier, type CarrierLogin } from "./reconnect-carrier";
import { getReconnectPage, type ReconnectStep } from "./reconnect-page";
import { answerReconnectPage, consumerAnswerSchema } from "./reconnect-page-answers";
import { guardReconnectPage } from "./reconnect-page-guard";
import { configuredReconnectPageKey } from "./reconnect-page-key";

// The consumer's side of the reconnect page Coverdesk hosts (app/connect/[token]): no login,
// the token in the address is the key, checked and rate-limited (./reconnect-page-guard.ts) on
// every view, status poll and answer.

export type ConnectPage =
  | { kind: "not-found" }
  /** Rate-limited: the page says so instead of the step. */
  | { kind: "wait"; message: string }
  | { kind: "step"; step: ReconnectStep; carrier: string; login: CarrierLogin; version: string };

/** Everything the consumer's page shows for this token, asked from `address`. */
export async function loadConnectPage(
  db: Db,
  service: ServiceConfig,
  token: string,
  address: string,
): Promise<ConnectPage> {
  const guard = await guardReconnectPage(db, configuredReconnectPageKey(), token, address, "view");
  if (!guard.ok) return guard.status === 404 ? { kind: "not-found" } : { kind: "wait", message: guard.message };
  const view = await getReconnectPage(db, guard.pageId);
  if (!view) return { kind: "not-found" };
  const { step } = view;
  // The carrier's own sign-in labels, from the service's catalogue; plain ones if it cannot be read.
  const entry = step.kind === "credentials" ? await matchCarrier(service, view.carrierNames).catch(() => null) : null;
  const carrier = entry?.name ?? view.carrier ?? "your insurance company";
  return { kind: "step", step, carrier, login: carrierLogin(entry), version: view.version };
}

export type ConnectPageStatus =
  | { ok: true; version: string; step: ReconnectStep["kind"] }
  | { ok: false; status: 404 | 429; error: "NOT_FOUND" | "RATE_LIMITED"; message: string };

/** The fingerprint of the consumer's step, polled by the open page. */
export async function getConnectPageStatus(db: Db, token: string, address: string): Promise<ConnectPageStatus> {
  const guard = await guardReconnectPage(db, configuredReconnectPageKey(), token, address, "view");
  if (!guard.ok)
    return {
      ok: false,
      status: guard.status,
      error: guard.status === 429 ? "RATE_LIMITED" : "NOT_FOUND",
      message: guard.message,
    };
  const view = await getReconnectPage(db, guard.pageId);
  if (!view) return { ok: false, status: 404, error: "NOT_FOUND", message: "This link is not valid." };
  return { ok: true, version: view.version, step: view.step.kind };
}

/** The consumer's answer (credentials, a choice, a code), as the form sent it. */
export type ConnectAnswerInput = {
  token: string;
  kind?: string;
  username?: string;
  password?: string;
  thirdField?: string;
  optionKey?: string;
  code?: string;
};

/** Checks the token, then the answer, then hands it to the service; the form shows the outcome. */
export async function answerConnectPage(
  db: Db,
  service: ServiceConfig,
  input: ConnectAnswerInput,
  address: string,
): Promise<FormState> {
  const guard = await guardReconnectPage(db, configuredReconnectPageKey(), input.token, address, "answer");
  if (!guard.ok)
    return { status: "error", message: guard.message, code: guard.status === 429 ? "RATE_LIMITED" : "NOT_FOUND" };
  const answer = consumerAnswerSchema.safeParse({
    kind: input.kind,
    username: input.username,
    password: input.password,
    thirdField: input.thirdField,
    optionKey: input.optionKey,
    code: input.code,
  });
  if (!answer.success)
    return { status: "error", message: answer.error.issues[0]?.message ?? "Check your answer.", code: "INVALID" };
  const result = await answerReconnectPage(db, service, guard.pageId, answer.data);
  return result.ok
    ? { status: "done", message: "Sent. Checking with your insurance company…" }
    : { status: "error", message: result.message, code: "CONFLICT" };
}
