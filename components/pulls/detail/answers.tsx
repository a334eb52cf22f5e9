import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import { FieldList } from "@/components/ui/field-list";
import { formatBytes } from "@/lib/format";
import type { AnswerField, AnswerSection } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { answerFileHref } from "./download-links";

// What the consumer answered to the link flow's own questions; uploaded files download through
// our route like documents.

function AnswerValue({ pullId, field }: { pullId: string; field: AnswerField }) {
  const value = field.value;
  if (value === null || value === "") return <span className="text-slate-600">Not answered</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-600">No file uploaded</span>;
    return (
      <ul className="space-y-1">
        {value.map((file) => (
          <li key={file.file_id}>
            <a
              href={answerFileHref(pullId, field.consumer_flow_section_field_id, file.file_id)}
              target="_blank"
              rel="noopener"
              className={cn(LINK_CLASS, "font-medium break-all")}
              data-testid="answer-file-link"
            >
              {file.name ?? "Uploaded file"}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>{" "}
            <span className="text-xs text-slate-600">
              {[file.type, formatBytes(file.size)].filter(Boolean).join(", ")}
            </span>
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  if (field.type === "DATE" && typeof value === "string") return <CalendarDate value={value} />;
  return <span className="whitespace-pre-wrap">{String(value)}</span>;
}

export function Answers({ pullId, sections }: { pullId: string; sections: AnswerSection[] }) {
  return (
    <div className="space-y-4">
      {sections.map((section, position) => (
        <div key={section.consumer_flow_section_id} data-testid="answer-section">
          {sections.length > 1 ? (
            <h3 className="mb-2 text-sm font-semibold text-slate-700">Part {position + 1}</h3>
          ) : null}
          <FieldList
            columns={2}
            fields={section.fields.map((field) => ({
              label: field.label ?? "Question",
              value: <AnswerValue pullId={pullId} field={field} />,
            }))}
          />
        </div>
      ))}
    </div>
  );
}
