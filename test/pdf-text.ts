import { constants, inflateSync } from "node:zlib";

// The text a PDF made with pdf-lib's standard fonts shows, for tests: each content stream is
// inflated and the strings of its text-showing operators (hex, as pdf-lib writes them, or
// literal) decoded from WinAnsi, in drawing order, joined by spaces; so a sentence wrapped over
// several lines reads back whole.

const cp1252 = new TextDecoder("windows-1252");

export function pdfText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  const source = buffer.toString("latin1");
  const shown: string[] = [];
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = source.indexOf("endstream", start);
    if (end < 0) continue;
    const raw = buffer.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }).toString("latin1");
    } catch {
      content = raw.toString("latin1");
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      const hex = text[1];
      shown.push(
        hex !== undefined
          ? cp1252.decode(Buffer.from(hex.replace(/\s/g, ""), "hex"))
          : (text[2] ?? "").replace(/\\([()\\])/g, "$1"),
      );
    }
  }
  return shown.join(" ");
}
