import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/types";
import { apiKeys, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { invalid, notFound, type CommandResult } from "@/lib/core/result";
import { API_SCOPES, type ApiScope } from "./scopes";

// API keys: made and revoked by an admin (the API keys page) or with `npm run api-key`.
//
// A key is `cdk_<id>_<secret>`: the id (a uuid without dashes) finds the row, the secret is 32
// random bytes (base64url). Only the SHA-256 of the secret is stored. A slow password hash
// (bcrypt) protects low-entropy secrets people choose; a 256-bit random secret cannot be
// guessed from its SHA-256 however fast the hash is, and a fast check keeps every call cheap.

const KEY_PATTERN = /^cdk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export const createApiKeyInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name, such as the service that will use it.")
    .max(80, "Keep the name under 80 characters."),
  scopes: z
    .array(z.enum(API_SCOPES, { message: `Scopes are ${API_SCOPES.join(", ")}.` }))
    .min(1, "Choose at least one scope."),
  rateLimitPerMinute: z.coerce
    .number({ message: "Give the calls a minute as a whole number." })
    .int("Give the calls a minute as a whole number.")
    .min(1, "Allow at least one call a minute.")
    .max(10_000, "Allow at most 10,000 calls a minute.")
    .optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInputSchema>;

export type ApiKeySummary = {
  id: string;
  name: string;
  scopes: ApiScope[];
  prefix: string;
  rateLimitPerMinute: number;
  createdByName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
const compactId = (id: string) => id.replaceAll("-", "");
const uuidOf = (compact: string) =>
  `${compact.slice(0, 8)}-${compact.slice(8, 12)}-${compact.slice(12, 16)}-${compact.slice(16, 20)}-${compact.slice(20)}`;

/**
 * Makes a key. The key itself is in the answer and nowhere else: show it once. `creator` is the
 * admin on the page (audited as them); null from the command line.
 */
export async function createApiKey(
  db: Db,
  input: CreateApiKeyInput | Record<string, unknown>,
  creator: Actor | null = null,
): Promise<CommandResult<{ id: string; key: string; name: string; scopes: ApiScope[] }>> {
  const parsed = createApiKeyInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path[0]?.toString());
  }
  const { name, rateLimitPerMinute } = parsed.data;
  const scopes = [...new Set(parsed.data.scopes)];
  const secret = randomBytes(32).toString("base64url");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        name,
        scopes,
        secretHash: hashSecret(secret),
        prefix: "",
        ...(rateLimitPerMinute ? { rateLimitPerMinute } : {}),
        createdBy: creator?.id ?? null,
      })
      .returning({ id: apiKeys.id });
    if (!row) throw new Error("api key not stored");
    const key = `cdk_${compactId(row.id)}_${secret}`;
    // What the list shows to tell keys apart: the id part and the secret's first characters.
    const prefix = `${key.slice(0, 12)}…`;
    await tx.update(apiKeys).set({ prefix }).where(eq(apiKeys.id, row.id));
    await recordAudit(tx, creator, "API_KEY_CREATED", { details: { keyId: row.id, name, scopes } });
    return { ok: true as const, id: row.id, key, name, scopes };
  });
}

/** Every key, newest first, revoked ones too (the page shows when they were revoked). */
export async function listApiKeys(db: Db): Promise<ApiKeySummary[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      prefix: apiKeys.prefix,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      createdByName: users.name,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({ ...row, scopes: row.scopes.filter(isScope) }));
}

const isScope = (scope: string): scope is ApiScope => (API_SCOPES as readonly string[]).includes(scope);

export const revokeApiKeyInputSchema = z.object({ id: z.uuid("Choose a key from the list.") });

/** Revokes a key at once: its next call is answered 401. Revoking a revoked key changes nothing. */
export async function revokeApiKey(
  db: Db,
  input: z.input<typeof revokeApiKeyInputSchema> | Record<string, unknown>,
  actor: Actor | null = null,
): Promise<CommandResult<{ name: string }>> {
  const parsed = revokeApiKeyInputSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Choose a key.", "id");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
      .where(eq(apiKeys.id, parsed.data.id))
      .returning({ name: apiKeys.name });
    if (!row) return notFound("That API key");
    await recordAudit(tx, actor, "API_KEY_REVOKED", { details: { keyId: parsed.data.id, name: row.name } });
    return { ok: true as const, name: row.name };
  });
}

/** The key a request presents, when it is well-formed, known, not revoked and its secret matches. */
export type AuthenticatedKey = { id: string; name: string; scopes: ApiScope[]; rateLimitPerMinute: number };

export async function authenticateApiKey(db: Db, presented: string): Promise<AuthenticatedKey | null> {
  const match = KEY_PATTERN.exec(presented.trim());
  if (!match?.[1] || !match[2]) return null;
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      secretHash: apiKeys.secretHash,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, uuidOf(match[1])), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  const given = Buffer.from(hashSecret(match[2]), "hex");
  const stored = Buffer.from(row.secretHash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  return { id: row.id, name: row.name, scopes: row.scopes.filter(isScope), rateLimitPerMinute: row.rateLimitPerMinute };
}

/**
 * Records that the key was used. Written at most once a minute per key: the page shows "last
 * used" to the minute, and a write on every call would be one more hot row update per request.
 */
export async function touchApiKey(db: Db, id: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))),
    );
}

/**
 * Whom a key acts as: an admin narrowed by its scopes, under its own id and name, so the audit
 * trail says "API key: Zapier" and a filter by actor finds its calls. Nothing is credited to a
 * key (a win it records on an unassigned pull is credited to no one).
 */
export function apiKeyActor(key: Pick<AuthenticatedKey, "id" | "name">): Actor {
  return { id: key.id, name: `API key: ${key.name}`, role: "ADMIN", apiKey: true };
}
