import "server-only";
import type { Db } from "@/db/types";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import { listApiKeys, type ApiKeySummary } from "@/lib/api/keys";
import { API_SCOPE_LABELS, API_SCOPES, type ApiScope } from "@/lib/api/scopes";

/** The admins' API keys page: every key (revoked ones too), and the scopes a new one may have. */
export type ApiKeysPage =
  { ok: true; keys: ApiKeySummary[]; scopes: Array<{ scope: ApiScope; label: string }> } | { ok: false };

export async function loadApiKeysPage(db: Db, user: Pick<Actor, "role"> | null): Promise<ApiKeysPage> {
  if (!can(user, "api-keys:manage")) return { ok: false };
  return {
    ok: true,
    keys: await listApiKeys(db),
    scopes: API_SCOPES.map((scope) => ({ scope, label: API_SCOPE_LABELS[scope] })),
  };
}
