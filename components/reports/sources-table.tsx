import { LINK_CLASS } from "@/components/ui/link-class";
import Link from "next/link";
import { formatCents, formatCount, formatDuration } from "@/lib/format";
import { pullListHref } from "@/lib/pulls/list-query";
import type { ReportFilter } from "@/lib/reports/report-filter";
import { csvHref, percent } from "@/lib/reports/report-links";
import type { SourceRow } from "@/lib/reports/sources";
import { ChartFigure } from "./chart-figure";
import { emptyMessage } from "./empty-message";
import { DataTable } from "@/components/ui/data-table";

// Where business comes from (per link) and how fast it is worked (per agent): the pulls that
// arrived in the range, followed to where they stand now, with the median times from linking to
// the first touch and to WON in words ("12 min", "3 h", "2 days"). A table, not a chart: eleven
// figures a row read best side by side, and it scrolls sideways on a phone.

const COLUMNS: Array<[header: string, title: string]> = [
  ["Arrived", "Accounts linked in the range (a refresh of an account is not a new arrival)"],
  ["Completed", "Linked successfully"],
  ["Assigned", "Successful and given to an agent (or decided)"],
  ["Won", "Marked WON"],
  ["Lost", "Marked LOST"],
  ["Close ratio", "Won of won and lost"],
  ["Won premium", "Premium of the won pulls"],
  ["First touch", "Median time from linking to the first touch (opened by its agent, or its stage or owner changed)"],
  ["To WON", "Median time from linking to WON"],
  ["Recycled wins", "Deals that came back and were won again in the range"],
];

/** The pulls linked through a row's link, or held by its agent, with the page's filter. */
function rowHref(row: SourceRow, by: "link" | "agent", filter: ReportFilter): string | null {
  const base = { from: filter.from, to: filter.to, policyType: filter.line, link: filter.link };
  if (by === "link") return row.alias ? pullListHref(base, { link: row.alias }) : null;
  return pullListHref(base, { assignee: row.key || "unassigned" });
}

function SourcesTable({ rows, by, filter }: { rows: SourceRow[]; by: "link" | "agent"; filter: ReportFilter }) {
  const caption = by === "link" ? "Arrivals and results by link" : "Arrivals and results by agent";
  return (
    <DataTable
      label={caption}
      caption={caption}
      hideCaption
      testId={`sources-by-${by}-table`}
      rows={rows}
      rowKey={(row) => row.key || row.label}
      columns={[
        {
          header: by === "link" ? "Link" : "Agent",
          rowHeader: true,
          className: "max-w-56 wrap-anywhere",
          cell: (row) => {
            const href = rowHref(row, by, filter);
            const name = by === "agent" && !row.key ? "No one (the queue)" : row.label;
            return (
              <>
                {href ? (
                  <Link href={href} className={LINK_CLASS}>
                    {name}
                  </Link>
                ) : (
                  name
                )}
                {by === "link" && row.alias && row.alias !== row.label ? (
                  <span className="block text-xs text-slate-500">{row.alias}</span>
                ) : null}
              </>
            );
          },
        },
        ...COLUMNS.map(([header, title], i) => ({
          header,
          headerTitle: title,
          numeric: true,
          cell: (row: SourceRow) => figuresOf(row)[i],
        })),
      ]}
    />
  );
}

/** A row's figures, in the order of COLUMNS. */
function figuresOf(row: SourceRow): string[] {
  return [
    formatCount(row.arrived),
    formatCount(row.completed),
    formatCount(row.assigned),
    formatCount(row.won),
    formatCount(row.lost),
    percent(row.closeRatio),
    formatCents(row.wonCents),
    formatDuration(row.medianToFirstTouchMs),
    formatDuration(row.medianToWonMs),
    formatCount(row.recycledWins),
  ];
}

export function Sources({
  byLink,
  byAgent,
  filter,
  namesAnswered,
}: {
  byLink: SourceRow[];
  byAgent: SourceRow[];
  filter: ReportFilter;
  /** False: the service did not name the links, so they read as their aliases. */
  namesAnswered: boolean;
}) {
  const empty = byLink.length === 0 ? emptyMessage("linked", filter) : null;
  const note = `The accounts linked in this range, followed to where they stand now; a refresh of an account is not a new arrival. First touch and To WON are medians from linking.`;
  return (
    <>
      <ChartFigure
        title="Where business comes from: by link"
        testId="sources-by-link"
        downloads={[{ label: "Download CSV", href: csvHref("sourcesByLink", filter) }]}
        note={namesAnswered ? note : `${note} The service did not name the links just now: they read as their aliases.`}
        empty={empty}
        wide
      >
        <SourcesTable rows={byLink} by="link" filter={filter} />
      </ChartFigure>
      <ChartFigure
        title="How fast it is worked: by agent"
        testId="sources-by-agent"
        downloads={[{ label: "Download CSV", href: csvHref("sourcesByAgent", filter) }]}
        note={`The same accounts, each with its agent: a win (and its premium and time to WON) with the agent it is credited to, everything else with whoever has it.`}
        empty={byAgent.length === 0 ? emptyMessage("linked", filter) : null}
        wide
      >
        <SourcesTable rows={byAgent} by="agent" filter={filter} />
      </ChartFigure>
    </>
  );
}
