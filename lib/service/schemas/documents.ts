import type { z } from "zod";
import { DOCUMENT_MIME_TYPES, DOCUMENT_TYPES } from "./enums-pull";
import { isoDate, looseResource, openEnum, requiredId, text } from "./tolerant";

// Documents retrieved from the account (spec 2.8). `download_url` is the service's API route,
// which needs our credentials, so it is kept as text rather than treated as a public link.

export const documentSchema = looseResource({
  document_id: requiredId,
  title: text,
  /** The document's effective date. */
  date_added: isoDate,
  document_type: openEnum(DOCUMENT_TYPES, "document type"),
  policy_id: text,
  mime_type: openEnum(DOCUMENT_MIME_TYPES, "document MIME type"),
  download_url: text,
});
export type Document = z.output<typeof documentSchema>;
