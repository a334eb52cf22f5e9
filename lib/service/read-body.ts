import { ServiceError } from "./errors";

// An answer from the service is read with a ceiling: a broken or hostile upstream that streams
// without end would otherwise hold the whole answer in this process's memory (and a JSON.parse
// of it) until it ran out. The ceiling is checked against Content-Length before reading and
// against the bytes as they arrive, since a chunked answer announces no length.

/** A page of the pull list carries whole payloads: ~50 kB each at 100 a page, with room to spare. */
export const MAX_JSON_ANSWER_BYTES = 32 * 1024 * 1024;
/** A report PDF from the policy check. */
export const MAX_FILE_ANSWER_BYTES = 64 * 1024 * 1024;

export const ANSWER_TOO_LARGE = "ANSWER_TOO_LARGE";

function tooLarge(label: string, status: number, maxBytes: number): ServiceError {
  return new ServiceError({
    status,
    code: ANSWER_TOO_LARGE,
    message: `${label}: the service's answer is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB; it was not read`,
    retryable: false,
  });
}

/** The answer's bytes, or a ServiceError (ANSWER_TOO_LARGE) as soon as it passes `maxBytes`. */
export async function readCappedBytes(response: Response, maxBytes: number, label: string): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(label, response.status, maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(label, response.status, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** The answer as JSON (its text when it is not JSON, null when empty), read under the ceiling. */
export async function readCappedJson(response: Response, maxBytes: number, label: string): Promise<unknown> {
  const text = (await readCappedBytes(response, maxBytes, label)).toString("utf8");
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
