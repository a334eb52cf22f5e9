import type { ReportFilter } from "@/lib/reports/report-filter";

// What a chart says instead of drawing nothing: that there is nothing, and which of the
// filters in use would widen it. An empty chart or a table of headers alone reads as broken.

const SUBJECTS = {
  won: { noun: "pulls", past: "were won", perfect: "have been won" },
  decided: { noun: "pulls", past: "were won or lost", perfect: "have been won or lost" },
  linked: { noun: "accounts", past: "were linked", perfect: "have been linked" },
  lost: { noun: "pulls", past: "were lost", perfect: "have been lost" },
} as const;

const joinAnd = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;

export function emptyMessage(subject: keyof typeof SUBJECTS, filter: ReportFilter): string {
  const { noun, past, perfect } = SUBJECTS[subject];
  const dated = Boolean(filter.from || filter.to);
  const narrowed = [
    filter.agent ? "agent" : "",
    filter.line ? "line of business" : "",
    filter.link ? "link" : "",
  ].filter(Boolean);
  const clear = narrowed.length > 0 ? `clear the ${joinAnd(narrowed)} filter${narrowed.length > 1 ? "s" : ""}` : "";
  if (dated) return `No ${noun} ${past} in this range. Widen the dates${clear ? ` or ${clear}` : ""}.`;
  if (clear) return `No ${noun} ${past} with these filters. ${clear.charAt(0).toUpperCase()}${clear.slice(1)}.`;
  return `No ${noun} ${perfect} yet.`;
}
