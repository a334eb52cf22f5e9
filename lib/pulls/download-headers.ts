// Response headers for files relayed from the service. Titles come from the service (and, for
// uploads, from consumers), so the filename is reduced to safe characters; only PDFs and
// images open inline, anything else is forced to download so it can never run as a page of ours.

const INLINE_TYPES = new Set(["application/pdf", "image/jpeg", "image/png", "image/gif", "image/webp"]);
const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
};
const MAX_NAME = 120;

/** "Endorsement \"A\", <b>bold</b>" → "Endorsement A bold.pdf": ASCII letters, digits, spaces, . _ - ( ). */
export function safeFilename(title: string | null | undefined, contentType: string, fallback = "document"): string {
  const extension = EXTENSIONS[contentType] ?? "";
  const ascii = (title ?? "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  let base = ascii
    .replace(/<[^>]*>/g, " ")
    .replace(/[^A-Za-z0-9 ._()-]+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  if (extension && base.toLowerCase().endsWith(extension)) base = base.slice(0, -extension.length).trim();
  base = base.slice(0, MAX_NAME).trim() || fallback;
  return `${base}${extension}`;
}

/** The MIME type without parameters, lower-cased; unknown when absent. */
export function baseContentType(header: string | null): string {
  const type = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : "application/octet-stream";
}

export function downloadHeaders(contentType: string, filename: string, length: number | null): Headers {
  const inline = INLINE_TYPES.has(contentType);
  const headers = new Headers({
    "content-type": inline ? contentType : "application/octet-stream",
    "content-disposition": `${inline ? "inline" : "attachment"}; filename="${filename}"`,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  });
  if (length !== null) headers.set("content-length", String(length));
  return headers;
}
