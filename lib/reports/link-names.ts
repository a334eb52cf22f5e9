import "server-only";
import type { ServiceConfig } from "@/lib/service/client";
import type { Widget } from "@/lib/service/schemas";
import { listWidgets } from "@/lib/service/widgets-api";
import type { SourceRow } from "./sources";

// The names people gave the agency's links, for the reports' per-link table. Pulls store only
// a link's widget id and public alias; its name ("Get a better quote in minutes") lives on the
// service, asked with the server's credentials. The list changes rarely, so each process keeps
// it for a few minutes; a service that fails or is slow never fails the page: the table then
// reads the aliases, and the service is asked again shortly after, not on every load.

const NAMES_TTL_MS = 5 * 60_000;
const FAILED_TTL_MS = 30_000;
/** A reports page waits at most this for the names, once, with no retry. */
const LOOKUP_TIMEOUT_MS = 2_000;
/** 100 links a page (the service's maximum); an agency with more than 1,000 links reads aliases for the rest. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

export type LinkNames = {
  byWidgetId: ReadonlyMap<string, string>;
  byAlias: ReadonlyMap<string, string>;
  /** False when the service did not answer: the names are the aliases. */
  answered: boolean;
};

const NONE: LinkNames = { byWidgetId: new Map(), byAlias: new Map(), answered: false };

type Cached = { until: number; names: Promise<LinkNames> };
const cache = globalThis as unknown as { __coverdeskLinkNames?: Map<string, Cached> };
const entries = () => (cache.__coverdeskLinkNames ??= new Map());

/** What a link is called: its intro title, else its alias (every link of an agency has the same company name). */
export function linkNameOf(
  widget: Pick<Widget, "widget_id" | "intro_title" | "public_alias" | "company_name">,
): string {
  return widget.intro_title?.trim() || widget.public_alias || widget.company_name || widget.widget_id;
}

async function fetchNames(service: ServiceConfig): Promise<LinkNames> {
  const quick: ServiceConfig = {
    ...service,
    timeoutMs: Math.min(service.timeoutMs, LOOKUP_TIMEOUT_MS),
    maxAttempts: 1,
  };
  const byWidgetId = new Map<string, string>();
  const byAlias = new Map<string, string>();
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { value } = await listWidgets(quick, { limit: PAGE_SIZE, before });
    const widgets = value.widgets ?? [];
    for (const widget of widgets) {
      const name = linkNameOf(widget);
      byWidgetId.set(widget.widget_id, name);
      if (widget.public_alias) byAlias.set(widget.public_alias, name);
    }
    const last = widgets[widgets.length - 1];
    if (widgets.length < PAGE_SIZE || !last) break;
    before = last.widget_id;
  }
  return { byWidgetId, byAlias, answered: true };
}

/** The links' names, from this process's copy when it is fresh; never throws. */
export function getLinkNames(service: ServiceConfig, now: number = Date.now()): Promise<LinkNames> {
  const key = `${service.baseUrl}|${service.teamId ?? ""}|${service.clientId}`;
  const cached = entries().get(key);
  if (cached && cached.until > now) return cached.names;
  // One request at a time per service: pages loading together share it.
  const names = fetchNames(service).then(
    (found) => found,
    (error: unknown) => {
      console.warn(
        `[reports] link names unavailable, showing aliases: ${error instanceof Error ? error.message : error}`,
      );
      entries().set(key, { until: now + FAILED_TTL_MS, names: Promise.resolve(NONE) });
      return NONE;
    },
  );
  entries().set(key, { until: now + NAMES_TTL_MS, names });
  return names;
}

/** Forgets every copy (tests; an admin who renamed a link sees it within the TTL otherwise). */
export function forgetLinkNames(): void {
  entries().clear();
}

/** The per-link rows with the service's names, the alias where it has none. */
export function nameLinks(rows: SourceRow[], names: LinkNames): SourceRow[] {
  return rows.map((row) => {
    const name =
      (row.widgetId ? names.byWidgetId.get(row.widgetId) : undefined) ??
      (row.alias ? names.byAlias.get(row.alias) : undefined);
    return name ? { ...row, label: name } : row;
  });
}
