import "server-only";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { csvLine } from "./to-csv";
import type { CsvColumn } from "./list-export";

// A list's CSV written as its rows are read (lib/csv/cursor.ts), so a 50,000-row file never sits
// whole in the app's memory: the header once, then each batch of lines as the reader takes it.
// The cells are the in-memory builder's (toCsv), byte for byte. The export's one audit line is
// written when the last row has left, naming every pull the file held; a download cut short is
// recorded with the rows sent so far and `complete: false`, since those rows did leave the app.

export type StreamedList<Row extends { pullId: string }> = {
  /** What the audit trail names the export. */
  name: string;
  /** The filters it was taken with (the page number is not one). */
  filters: Record<string, unknown>;
  columns: ReadonlyArray<CsvColumn<Row>>;
  /** Reads the rows in the file's order, handing each batch to `each` and waiting for it. */
  read: (each: (rows: Row[]) => Promise<void>) => Promise<void>;
};

const encoder = new TextEncoder();

/** The file as a byte stream, starting with the byte-order mark csvResponse puts before a whole file. */
export function streamListCsv<Row extends { pullId: string }>(
  auditDb: Db,
  actor: Actor,
  list: StreamedList<Row>,
): ReadableStream<Uint8Array> {
  // The readable side buffers nothing ahead (high-water mark 0): a batch is fetched only after
  // the previous one was taken, so memory holds a batch or two whatever the file's length.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const send = async (text: string) => {
    await writer.ready;
    await writer.write(encoder.encode(text));
  };
  const pullIds = new Set<string>();
  let rows = 0;

  void (async () => {
    let failure: unknown = null;
    try {
      await send(`\uFEFF${csvLine(list.columns.map(([header]) => header))}`);
      await list.read(async (batch) => {
        // Counted before the write: a batch handed to the reader may have left.
        for (const row of batch) pullIds.add(row.pullId);
        rows += batch.length;
        await send(batch.map((row) => csvLine(list.columns.map(([, cell]) => cell(row)))).join(""));
      });
    } catch (error) {
      failure = error;
    }
    try {
      // Who took which slice of the book, and how much of it; each consumer in the file, for the
      // incident-scope report.
      await recordAudit(auditDb, actor, "CSV_EXPORTED", {
        pullIds: [...pullIds],
        details: {
          export: list.name,
          filters: { ...list.filters, page: undefined },
          rows,
          ...(failure === null ? {} : { complete: false }),
        },
      });
    } catch (error) {
      // Without its audit line the file is not finished: the reader sees a broken download.
      failure ??= error;
    }
    // A reader gone by now has its answer already; nothing is left to tell it.
    if (failure === null) await writer.close().catch(() => {});
    else await writer.abort(failure).catch(() => {});
  })();

  return readable;
}

/** A file's filters, or the fields whose values did not parse: refused, since dropping one would widen the file. */
export type ExportRequest<Q> = { status: "ready"; query: Q } | { status: "refused"; ignored: string[] };

export function exportRequest<Q>(parsed: { query: Q; ignored: string[] }): ExportRequest<Q> {
  return parsed.ignored.length > 0
    ? { status: "refused", ignored: parsed.ignored }
    : { status: "ready", query: parsed.query };
}

/** A list export's refusal, before any byte of a file: filters that did not parse would widen it. */
export function filtersRefused(ignored: string[]): Response {
  return Response.json(
    { error: "INVALID_FILTERS", message: `These filters are not valid: ${ignored.join(", ")}.`, ignored },
    { status: 400 },
  );
}
