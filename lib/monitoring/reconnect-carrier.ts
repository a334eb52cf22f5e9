import "server-only";
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

/** The carrier's own rule for its third field; a rule the service sent broken is not held against the consumer. */
export function thirdFieldMatches(carrier: Carrier | null, value: string): boolean {
  const source = carrier?.thirdFieldValidatorRgx;
  if (!source) return true;
  try {
    const flags = (carrier.thirdFieldValidatorRgxFlags ?? "").replace(/[^imsu]/g, "");
    return new RegExp(source, flags).test(value);
  } catch {
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
