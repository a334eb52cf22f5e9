import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { DASH } from "@/lib/format";
import type { Document } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { documentHref } from "./download-links";
import { policyLabel, type PullIndex } from "./pull-lookups";
import { DOCUMENT_TYPES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// The account's documents (declarations pages, ID cards…). Each opens in a new tab through our
// download route; PDFs display inline.

const FORMATS: Record<string, string> = { "application/pdf": "PDF", "image/jpeg": "JPEG image" };

export function Documents({ pullId, documents, index }: { pullId: string; documents: Document[]; index: PullIndex }) {
  return (
    <DataTable
      label="Documents"
      rows={documents}
      rowKey={(document) => document.document_id}
      rowTestId="document"
      columns={[
        {
          header: "Document",
          cell: (document) => (
            <a
              href={documentHref(pullId, document.document_id)}
              target="_blank"
              rel="noopener"
              className={cn(LINK_CLASS, "font-medium break-words")}
              data-testid="document-link"
            >
              {document.title ?? "Untitled document"}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ),
        },
        { header: "Type", cell: (document) => enumLabel(DOCUMENT_TYPES, document.document_type) },
        { header: "Date", cell: (document) => <CalendarDate value={document.date_added} /> },
        {
          header: "Policy",
          cell: (document) => {
            const policy = document.policy_id ? index.policies.get(document.policy_id) : undefined;
            return policy ? policyLabel(policy) : DASH;
          },
        },
        {
          header: "Format",
          cell: (document) => (document.mime_type ? (FORMATS[document.mime_type] ?? document.mime_type) : DASH),
        },
      ]}
    />
  );
}
