import "server-only";
import type { Db } from "@/db/types";
import type { RedisclosureRow } from "@/db/schema";
import {
  getIncidentScope,
  readIncidentRequest,
  type IncidentRequest,
  type IncidentScope,
} from "@/lib/audit/incident-scope";
import { listRedisclosures } from "@/lib/audit/redisclosure";
import { listAllUsers } from "@/lib/users/queries";
import type { SearchParams } from "@/lib/url/search-params";

// The incident page (/admin/incident): the incident-scope report for the URL's filters, or the
// DPPA redisclosure log (`?view=log`).

export type IncidentPage =
  | {
      view: "scope";
      request: IncidentRequest;
      /** Everyone who has an account, departed users too: an incident may be theirs. */
      people: Array<{ id: string; name: string; isActive: boolean }>;
      scope: IncidentScope | null;
      csvHref: string | null;
    }
  | { view: "log"; log: RedisclosureRow[] };

export async function loadIncidentPage(db: Db, params: SearchParams): Promise<IncidentPage> {
  if (params.view === "log") return { view: "log", log: await listRedisclosures(db) };
  const request = readIncidentRequest(params);
  const [people, scope] = await Promise.all([
    listAllUsers(db),
    request.status === "ready" ? getIncidentScope(db, request.input) : null,
  ]);
  return {
    view: "scope",
    request,
    people: people.map(({ id, name, isActive }) => ({ id, name, isActive })),
    scope,
    csvHref:
      request.status === "ready"
        ? `/api/admin/incident/csv?${new URLSearchParams(Object.entries(request.fields).filter(([, value]) => value !== "")).toString()}`
        : null,
  };
}
