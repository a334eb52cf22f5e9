import "server-only";
import type { Env } from "@/lib/env";
import type { ServiceConfig } from "./client";
import type { WebhookRegistration } from "./schemas";
import { listWebhooks } from "./webhook-registrations-api";

// The signing secrets of the team's webhook registrations, which the receiver checks deliveries
// against. Each registration has its own secret and GET /webhooks lists them all, webhooks made
// on the service's dashboard included (service-notes, "Webhooks"), so no setting has to repeat
// them. They are kept in memory only (a copy in the database would be one more place a secret
// leaks from), per process: each app instance reads them itself, which needs no coordination.
// They are read again when the copy is older than SECRETS_TTL_MS, on the sync schedule, when
// the Service connection page lists the registrations, and when a signature matches none of
// them (a registration made since). A read starts at most once per MIN_READ_INTERVAL_MS,
// whatever the reason, so a flood of forged signatures cannot make Coverdesk flood the service.

/** A deleted registration's secret stops being accepted within this time. */
export const SECRETS_TTL_MS = 5 * 60_000;
export const MIN_READ_INTERVAL_MS = 30_000;

export type SigningSecrets = {
  /** The secrets as last read; read first when there is no copy yet or it has expired (and no read is too recent). */
  current: () => Promise<string[]>;
  /** For a signature none of the current secrets made: the secrets read again, or null when a read is too recent. */
  readAgainForUnknownSignature: () => Promise<string[] | null>;
  /** Reads them again now: the sync schedule's upkeep. */
  refresh: () => Promise<void>;
  /** Keeps a list already read (the Service connection page lists the registrations anyway). */
  remember: (registrations: readonly WebhookRegistration[]) => void;
};

/**
 * Whether this instance requires, and so checks, webhook signatures: always in production, and
 * wherever SERVICE_WEBHOOK_SECRET is set. Zero-setup development and tests take every delivery
 * unchecked, as a signature that need not be there could simply be left off.
 */
export function checksWebhookSignatures(config: Pick<Env, "nodeEnv" | "service">): boolean {
  return config.nodeEnv === "production" || config.service.webhookSecret !== null;
}

export function secretsOf(registrations: readonly WebhookRegistration[]): string[] {
  return registrations.map((r) => r.signing_secret).filter((secret): secret is string => Boolean(secret));
}

export function createSigningSecrets(
  read: () => Promise<readonly WebhookRegistration[]>,
  options: { now?: () => number; log?: (line: string) => void } = {},
): SigningSecrets {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.warn(`[webhook] ${line}`));
  let secrets: string[] = [];
  let readAt: number | null = null;
  let lastAttemptAt: number | null = null;
  let inFlight: Promise<void> | null = null;

  const remember = (registrations: readonly WebhookRegistration[]) => {
    secrets = secretsOf(registrations);
    readAt = now();
  };
  // One read at a time; a failed read keeps the secrets already known.
  const readNow = (): Promise<void> => {
    lastAttemptAt = now();
    inFlight ??= read()
      .then(remember)
      .catch((error: unknown) =>
        log(
          `could not read the webhook registrations' signing secrets: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  const mayRead = () => lastAttemptAt === null || now() - lastAttemptAt >= MIN_READ_INTERVAL_MS;

  return {
    async current() {
      if (inFlight) await inFlight;
      else if ((readAt === null || now() - readAt > SECRETS_TTL_MS) && mayRead()) await readNow();
      return secrets;
    },
    async readAgainForUnknownSignature() {
      if (inFlight) await inFlight;
      else if (mayRead()) await readNow();
      else return null;
      return secrets;
    },
    refresh: readNow,
    remember,
  };
}

const processWide = globalThis as unknown as { __coverdeskSigningSecrets?: Map<string, SigningSecrets> };

/** This process's secrets of one team's registrations (kept on globalThis, so dev reloads share them). */
export function teamSigningSecrets(config: ServiceConfig & { teamId: string }): SigningSecrets {
  const byTeam = (processWide.__coverdeskSigningSecrets ??= new Map());
  const key = `${config.baseUrl} ${config.teamId} ${config.clientId}`;
  let found = byTeam.get(key);
  if (!found) {
    // One attempt: a delivery waits on this read, and a failed one is simply tried again later
    // (the next unknown signature, the service's own retry of the delivery).
    found = createSigningSecrets(() => listWebhooks({ ...config, maxAttempts: 1 }));
    byTeam.set(key, found);
  }
  return found;
}
