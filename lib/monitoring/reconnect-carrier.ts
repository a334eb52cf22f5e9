import "server-only";
import { runInNewContext } from "node:vm";
import { listCarriers } from "@/lib/service/carriers-api";
import type { ServiceConfig } from "@/lib/service/client";
import type { Carrier } from "@/lib/service/schemas";

// The consumer's carrier as the service's catalogue describes it. The service takes a carrier
// only by its id (`statefarm`) as insurerName, never by the name a person reads; the catalogue
// also says how the carrier's own login reads: what it calls the username, whether it has a
// third field (and how to check it), whether it has a password at all, where to reset it.

const key = (value: string) => value.trim().toLowerCase();

/** The catalogue is public and changes rarely: one read per process every 10 minutes, so a busy public page costs the service nothing. */
const CATALOGUE_TTL_MS = 10 * 60_000;
const catalogues = new Map<string, { at: number; carriers: Carrier[] }>();

async function catalogue(service: ServiceConfig): Promise<Carrier[]> {
  const cached = catalogues.get(service.baseUrl);
  if (cached && Date.now() - cached.at < CATALOGUE_TTL_MS) return cached.carriers;
  const carriers = await listCarriers(service);
  catalogues.set(service.baseUrl, { at: Date.now(), carriers });
  return carriers;
}

/** The carrier of GET /carriers that one of `names` denotes (its id first, then its name, any case), or null. */
export async function matchCarrier(service: ServiceConfig, names: readonly string[]): Promise<Carrier | null> {
  const wanted = new Set(names.map(key).filter((n) => n !== ""));
  if (wanted.size === 0) return null;
  const carriers = await catalogue(service);
  return (
    carriers.find((c) => wanted.has(key(c.carrier_id))) ??
    carriers.find((c) => c.name !== null && wanted.has(key(c.name))) ??
    null
  );
}

export type CarrierLogin = {
  usernameLabel: string;
  password: boolean;
  thirdField: { label: string; error: string } | null;
  /** Only an http(s) address: the catalogue's text is never trusted as a link scheme. */
  resetPasswordUrl: string | null;
};

/** How the carrier's sign-in form reads; an unknown carrier gets the plain username and password. */
export function carrierLogin(carrier: Carrier | null): CarrierLogin {
  const third = carrier?.thirdFieldPlaceholder?.trim();
  return {
    usernameLabel: carrier?.usernameFieldPlaceholder?.trim() || "Username",
    password: carrier?.disablePasswordField !== true,
    thirdField: third
      ? { label: third, error: carrier?.thirdFieldValidatorError?.trim() || `Check your ${third}.` }
      : null,
    resetPasswordUrl: webAddress(carrier?.resetPasswordUrl ?? null),
  };
}

/** How long the carrier's rule may run on one answer: a pattern like `(a+)+$` backtracks for minutes on 30 characters. */
export const THIRD_FIELD_RULE_TIMEOUT_MS = 50;
/** A longer pattern is not a field rule; it is not run. */
const MAX_RULE_LENGTH = 500;

/**
 * The carrier's own rule for its third field. The pattern comes from the service and runs on
 * what a stranger typed into a public page, so it runs in a context of its own under a time
 * limit (V8 interrupts a backtracking match when the limit passes). A rule the service sent
 * broken, too long or too slow is not held against the consumer: the carrier checks the value
 * again when the service signs in.
 */
export function thirdFieldMatches(carrier: Carrier | null, value: string): boolean {
  const source = carrier?.thirdFieldValidatorRgx;
  if (!source || source.length > MAX_RULE_LENGTH) return true;
  try {
    const flags = (carrier.thirdFieldValidatorRgxFlags ?? "").replace(/[^imsu]/g, "");
    const rule = new RegExp(source, flags);
    return runInNewContext("rule.test(value)", { rule, value }, { timeout: THIRD_FIELD_RULE_TIMEOUT_MS }) === true;
  } catch (error) {
    if (error instanceof Error && /timed out/i.test(error.message))
      console.warn(
        `[reconnect] the third-field rule of ${carrier.carrier_id} ran past ${THIRD_FIELD_RULE_TIMEOUT_MS} ms; not applied`,
      );
    return true;
  }
}

function webAddress(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
