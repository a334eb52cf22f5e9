import "server-only";
import type { PDFFont } from "pdf-lib";

// Text for pdf-lib's standard fonts, which encode WinAnsi (Windows-1252) only: a character
// outside it (Cyrillic, CJK, an emoji, a control character) makes drawText throw. Names and
// addresses come from carriers and consumers, so every string is made drawable first: accents
// the encoding lacks are dropped from their letters, anything else left becomes "?".

/** The characters of Windows-1252 beyond Latin-1 (0x80–0x9F). */
const CP1252_EXTRAS = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
const EXTRAS = new Set([...CP1252_EXTRAS]);

/** Letters Unicode does not decompose into a base letter and a mark. */
const STROKED: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŧ: "T", ŧ: "t" };

function encodable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || EXTRAS.has(char);
}

export function winAnsi(text: string): string {
  let out = "";
  for (const char of text.replace(/[\r\n\t\f\v]+/g, " ")) {
    if (encodable(char)) {
      out += char;
      continue;
    }
    // "ő" → "o" (Latin-1 has "ö" but not "ő"); letters with a stroke have no decomposition;
    // combining marks and invisible format characters alone are dropped.
    const base = (STROKED[char] ?? char).normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    const kept = [...base].filter(encodable).join("");
    out += kept || (/\p{M}|\p{Cf}/u.test(char) ? "" : "?");
  }
  return out;
}

const MAX_TEXT = 4_000;

/** Lines of at most `width` points; words longer than a line are cut. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  // Nothing drawn on one page needs more; a hostile string of megabytes must not cost seconds.
  for (const word of winAnsi(text.slice(0, MAX_TEXT)).split(" ").filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (!fits(rest)) {
      // The longest head that fits (at least one character), found by halving.
      let low = 1;
      let high = rest.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(rest.slice(0, middle))) low = middle;
        else high = middle - 1;
      }
      lines.push(rest.slice(0, low));
      rest = rest.slice(low);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}
