import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { monitorings, reconnectPages } from "@/db/schema";
import type { Db } from "@/db/types";
import type { ServiceConfig } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import {
  chooseVerificationOption,
  connectPull,
  exchangeReconnectToken,
  submitVerificationCode,
} from "@/lib/service/link-api";
import { getMonitoringReconnectToken } from "@/lib/service/monitorings-api";
import type { Carrier, PullSessionResponse } from "@/lib/service/schemas";
import { carrierLogin, matchCarrier, thirdFieldMatches } from "./reconnect-carrier";
import { CLOSED_REASONS, HOSTED_ONLY, getReconnectPage, type ReconnectPageView } from "./reconnect-page";

// The consumer's answers on a Coverdesk reconnect page, passed to the service's whitelabel
// calls (service-spec 3.3). The first answer trades the account's reconnect token for a pull
// session, kept on our server; an expired token is replaced by a fresh one from the service.
// Credentials go straight through to the service and are never stored.

export const consumerAnswerSchema = z.discriminatedUnion("kind", [
  // Whether a password and a third field are needed depends on the carrier: checked against its catalogue entry.
  z.object({
    kind: z.literal("credentials"),
    username: z.string().trim().min(1, "Enter your username.").max(500),
    password: z.string().max(500).optional(),
    thirdField: z.string().trim().max(500).optional(),
  }),
  z.object({ kind: z.literal("options"), optionKey: z.string().min(1, "Choose where to send the code.").max(200) }),
  z.object({ kind: z.literal("code"), code: z.string().trim().min(1, "Enter the code.").max(50) }),
]);
export type ConsumerAnswer = z.output<typeof consumerAnswerSchema>;

export type AnswerResult = { ok: true } | { ok: false; message: string };

const UNKNOWN_CARRIER =
  "We could not tell which insurance company this account is with, so nothing was sent. Ask your agent for help.";
const HOSTED_MESSAGE =
  "Your agency reconnects accounts on the secure page of the service it works with. Nothing was sent; continue on that page.";
const UNREACHABLE =
  "We could not reach the service that connects your insurance company. Nothing was sent; try again in a minute.";

type Session = { pullId: string; jwt: string };

async function keepSession(db: Db, pageId: string, session: PullSessionResponse | null): Promise<void> {
  await db
    .update(reconnectPages)
    .set({
      sessionPullId: session?.pull_id ?? null,
      sessionJwt: session?.pull_jwt ?? null,
      sessionStartedAt: session ? new Date() : null,
    })
    .where(eq(reconnectPages.id, pageId));
}

/** A fresh reconnect token from the service (the one we hold expired, or was never sent). */
async function freshToken(db: Db, service: ServiceConfig, monitoringId: string): Promise<string> {
  const { value } = await getMonitoringReconnectToken(service, monitoringId);
  if (!value.reconnect_token)
    throw new ServiceError({
      status: 502,
      code: "NO_RECONNECT_TOKEN",
      message: "The service gave no reconnect token.",
      retryable: false,
    });
  await db
    .update(monitorings)
    .set({ reconnectToken: value.reconnect_token, reconnectUrl: value.reconnect_url, updatedAt: new Date() })
    .where(eq(monitorings.monitoringId, monitoringId));
  return value.reconnect_token;
}

/** Makes sure the account's hosted reconnect link is held: the webhook's, else a fresh one from the service. */
async function holdHostedLink(db: Db, service: ServiceConfig, monitoringId: string): Promise<void> {
  const [held] = await db
    .select({ url: monitorings.reconnectUrl })
    .from(monitorings)
    .where(eq(monitorings.monitoringId, monitoringId));
  if (held?.url) return;
  // Without one the page asks the consumer to get a new link from their agent; nothing to undo.
  await freshToken(db, service, monitoringId).catch(() => null);
}

/** Trades a reconnect token for a pull session; a refusal the consumer cannot fix closes the page. */
async function startSession(db: Db, service: ServiceConfig, view: ReconnectPageView): Promise<Session | AnswerResult> {
  const monitoringId = view.page.monitoringId;
  const [held] = await db
    .select({ token: monitorings.reconnectToken })
    .from(monitorings)
    .where(eq(monitorings.monitoringId, monitoringId));
  let session: PullSessionResponse;
  try {
    try {
      session = await exchangeReconnectToken(service, held?.token ?? (await freshToken(db, service, monitoringId)));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "INVALID_RECONNECT_TOKEN") throw error;
      session = await exchangeReconnectToken(service, await freshToken(db, service, monitoringId));
    }
  } catch (error) {
    // No whitelabel access: the consumer is sent to the service's own page instead, from now on.
    if (error instanceof ServiceError && error.status === 403 && error.code === "FORBIDDEN") {
      await holdHostedLink(db, service, monitoringId);
      await db.update(reconnectPages).set({ closedReason: HOSTED_ONLY }).where(eq(reconnectPages.id, view.page.id));
      return { ok: false, message: HOSTED_MESSAGE };
    }
    if (error instanceof ServiceError && error.code in CLOSED_REASONS) {
      await db.update(reconnectPages).set({ closedReason: error.code }).where(eq(reconnectPages.id, view.page.id));
      return { ok: false, message: CLOSED_REASONS[error.code] ?? "" };
    }
    throw error;
  }
  await keepSession(db, view.page.id, session);
  return { pullId: session.pull_id, jwt: session.pull_jwt };
}

/** `carrier`: for a credentials answer, the carrier of GET /carriers, whose id is the insurerName. */
async function send(
  service: ServiceConfig,
  session: Session,
  answer: ConsumerAnswer,
  carrier: Carrier | null,
): Promise<void> {
  const pull = { pull_id: session.pullId, pull_jwt: session.jwt };
  if (answer.kind === "credentials") {
    if (!carrier) throw new Error("credentials need the carrier"); // resolved by the caller first
    const login = carrierLogin(carrier);
    await connectPull(service, pull, {
      insurerName: carrier.carrier_id,
      insurerUsername: answer.username,
      insurerPassword: login.password ? answer.password : undefined,
      insurerThirdField: login.thirdField ? answer.thirdField : undefined,
    });
  } else if (answer.kind === "options") await chooseVerificationOption(service, pull, answer.optionKey);
  else await submitVerificationCode(service, pull, answer.code);
}

/** What the carrier's login needs that the answer lacks, in its own words where it has them. */
function credentialsRefusal(carrier: Carrier, answer: Extract<ConsumerAnswer, { kind: "credentials" }>): string | null {
  const login = carrierLogin(carrier);
  if (login.password && !answer.password) return "Enter your password.";
  if (login.thirdField) {
    if (!answer.thirdField) return `Enter your ${login.thirdField.label}.`;
    if (!thirdFieldMatches(carrier, answer.thirdField)) return login.thirdField.error;
  }
  return null;
}

export async function answerReconnectPage(
  db: Db,
  service: ServiceConfig,
  pageId: string,
  answer: ConsumerAnswer,
): Promise<AnswerResult> {
  const view = await getReconnectPage(db, pageId);
  if (!view) return { ok: false, message: "This link is not valid." };
  if (view.step.kind !== answer.kind)
    return { ok: false, message: "This page has moved on; it now shows where your login stands." };
  try {
    // Credentials name the carrier by its id, found (and its login's rules checked) before anything is sent.
    const carrier = answer.kind === "credentials" ? await matchCarrier(service, view.carrierNames) : null;
    if (answer.kind === "credentials") {
      if (!carrier) return { ok: false, message: UNKNOWN_CARRIER };
      const refusal = credentialsRefusal(carrier, answer);
      if (refusal) return { ok: false, message: refusal };
    }
    const held =
      view.page.sessionPullId && view.page.sessionJwt
        ? { pullId: view.page.sessionPullId, jwt: view.page.sessionJwt }
        : null;
    let session: Session | AnswerResult = held ?? (await startSession(db, service, view));
    if ("ok" in session) return session;
    // A new session may be on a new pull of the account (the stopped one was not waiting any
    // more), which starts at credentials: read the step again only then.
    const current = held ? view : await getReconnectPage(db, pageId);
    if (current && current.step.kind !== answer.kind)
      return { ok: false, message: "Please sign in to your insurance account again." };
    const sequence = current?.sequence ?? 0;
    try {
      await send(service, session, answer, carrier);
    } catch (error) {
      // The pull's session expires after a while: start a new one from a fresh token, once.
      if (!(error instanceof ServiceError) || (error.status !== 401 && error.status !== 403)) throw error;
      await keepSession(db, pageId, null);
      await db
        .update(monitorings)
        .set({ reconnectToken: null })
        .where(eq(monitorings.monitoringId, view.page.monitoringId));
      session = await startSession(db, service, view);
      if ("ok" in session) return session;
      await send(service, session, answer, carrier);
    }
    await db
      .update(reconnectPages)
      .set({ answeredAtSequence: sequence, answeredAt: new Date() })
      .where(eq(reconnectPages.id, pageId));
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // A rate limit is, to the consumer, the same: not now, try again shortly.
    if (error.status === 0 || error.status >= 500 || error.status === 429) return { ok: false, message: UNREACHABLE };
    // INVALID_ACTION is the service's word for a step at the wrong moment; INVALID_STATE an older one.
    if (error.code === "INVALID_ACTION" || error.code === "INVALID_STATE")
      return {
        ok: false,
        message:
          "Your insurance company is not waiting for that step any more. The page shows where your login stands.",
      };
    return { ok: false, message: "That answer was not accepted. Check it and try again." };
  }
}
