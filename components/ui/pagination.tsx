import Link from "next/link";
import { buttonClass } from "./button";

/**
 * Page links that keep the other parameters of the URL (filters), so a page can be shared.
 * `more`: pages follow beyond `pageCount` (a count that stopped at its cap): "of 200+", and a
 * Next link for as long as pages come back full.
 */
export function Pagination({
  page,
  pageCount,
  more = false,
  basePath,
  query = {},
}: {
  page: number;
  pageCount: number;
  more?: boolean;
  basePath: string;
  /** The list's query (its own page number is replaced). */
  query?: Record<string, string | number | undefined>;
}) {
  if (pageCount <= 1 && !more) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([key, value]) =>
        key === "page" || value === undefined || value === "" ? [] : [[key, String(value)]],
      ),
    );
    params.set("page", String(p));
    return `${basePath}?${params.toString()}`;
  };
  const linkClass = buttonClass({ variant: "secondary" });
  return (
    <nav aria-label="Pages" className="flex items-center justify-end gap-2 text-sm">
      {page > 1 ? (
        <Link className={linkClass} href={href(page - 1)}>
          Previous
        </Link>
      ) : null}
      <span className="text-slate-600">
        Page {page} of {pageCount.toLocaleString("en-US")}
        {more ? "+" : ""}
      </span>
      {page < pageCount || more ? (
        <Link className={linkClass} href={href(page + 1)}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
