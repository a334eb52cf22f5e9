// A tiny PDF writer for the sandbox's document downloads: one US-letter page of Helvetica
// text. Just enough of PDF 1.4 for every viewer to open it: catalog, page tree, one page,
// two standard fonts, one content stream, an info dictionary, and an exact xref table.

export type PdfPage = {
  /** Set in bold at the top and used as the document's /Title. */
  title: string;
  /** Body lines, each wrapped to the page width. */
  lines: string[];
};

/** Characters outside Latin-1 that WinAnsiEncoding still has, at their WinAnsi codes. */
const WIN_ANSI_EXTRAS: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  "„": 0x84,
  "…": 0x85,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "™": 0x99,
};

/**
 * A PDF literal string `( … )`. Backslash and both parentheses are escaped, so no input can
 * close the string early and inject operators; every byte outside printable ASCII is written
 * as an octal escape, so the file stays 7-bit; control characters become spaces and
 * characters WinAnsi lacks "?".
 */
export function pdfString(text: string): string {
  let out = "(";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    if (char === "\\" || char === "(" || char === ")") out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code < 0x20)
      out += " "; // a line break or tab inside one shown line reads as a space
    else {
      const byte = code >= 0xa0 && code <= 0xff ? code : (WIN_ANSI_EXTRAS[char] ?? 0x3f);
      out += `\\${byte.toString(8).padStart(3, "0")}`;
    }
  }
  return `${out})`;
}

/** Greedy word wrap; a word longer than the line is cut. Helvetica averages ~0.5 em a glyph. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > width) {
      if (line) lines.push(line);
      lines.push(rest.slice(0, width));
      line = "";
      rest = rest.slice(width);
    }
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

function pdfDate(date: Date): string {
  return `D:${date.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
}

function contentStream(page: PdfPage): string {
  const ops = ["BT", "/F1 18 Tf", "22 TL", "72 720 Td"];
  for (const line of wrap(page.title, 48)) ops.push(`${pdfString(line)} Tj`, "T*");
  ops.push("/F2 11 Tf", "15 TL", "T*");
  let budget = 40; // lines left on the page; the rest is dropped rather than run off the edge
  for (const line of page.lines.flatMap((l) => wrap(l, 90))) {
    if (budget-- <= 0) break;
    ops.push(`${pdfString(line)} Tj`, "T*");
  }
  ops.push("ET");
  return ops.join("\n");
}

/** A complete, valid single-page PDF. Deterministic for its input and `createdAt`. */
export function renderPdf(page: PdfPage, createdAt: Date = new Date(0)): Buffer {
  const content = contentStream(page);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(page.title)} /Producer (Coverdesk sandbox) /CreationDate (${pdfDate(createdAt)}) >>`,
  ];
  // The second line's high bytes tell transfer tools the file is binary (PDF 1.4, 7.5.2).
  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, "latin1");
  // Each xref entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, CR LF.
  const entries = ["0000000000 65535 f\r\n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n\r\n`)];
  body += `xref\n0 ${objects.length + 1}\n${entries.join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xrefAt}\n%%EOF`;
  return Buffer.from(body, "latin1");
}
