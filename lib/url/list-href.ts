// The URL of a list's view, for every list that keeps its state in the URL (the pull list, the
// cross-sell list, the X-dates): the query with some parts changed, as search parameters in the
// order of the list's fields, without empties, page 1 or the list's other defaults, so two
// links to one view are the same link.

export type HrefChanges<Q> = Partial<Record<keyof Q, string | number | undefined>>;

export function listHref<Q extends object>(
  path: string,
  fieldOrder: readonly string[],
  query: Q,
  changes: HrefChanges<Q> = {},
  defaults: Readonly<Record<string, unknown>> = {},
): string {
  const params = new URLSearchParams();
  const merged: Record<string, unknown> = { ...query, ...changes };
  for (const key of fieldOrder) {
    const value = merged[key];
    if (value === undefined || value === "") continue;
    if (key === "page" && value === 1) continue;
    if (key in defaults && defaults[key] === value) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
