// CSV as spreadsheets read it (RFC 4180): fields with commas, quotes or line breaks are quoted
// and inner quotes doubled; lines end with CRLF. A text cell starting with = + - @ (or a tab or
// carriage return) is prefixed with an apostrophe, so a hostile name cannot run as a formula
// when the file is opened in a spreadsheet.

export type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of a file, CRLF included: what toCsv writes for each row. */
export function csvLine(row: Cell[]): string {
  return `${row.map(csvCell).join(",")}\r\n`;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/**
 * A download response; the filename is reduced to safe characters. A whole file is given the
 * byte-order mark here; a streamed one (lib/csv/stream-export.ts) writes its own.
 */
export function csvResponse(filename: string, body: string | ReadableStream<Uint8Array>): Response {
  const safe = filename.replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 80) || "export";
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (names with accents).
  return new Response(typeof body === "string" ? `\uFEFF${body}` : body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${safe}.csv"`,
      "cache-control": "no-store",
    },
  });
}

/** Money as exact decimal dollars ("1234.56", "-0.05"): what a spreadsheet sums without rounding. */
export function centsToDollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
