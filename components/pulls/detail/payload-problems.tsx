import { DataTable } from "@/components/ui/data-table";
import { DetailSection } from "./detail-section";
import type { PayloadProblem } from "@/lib/service/schemas";

// What the service sent that did not fit its own spec, for admins: the pull was kept, and
// these values were read as empty, or the item was set aside. (Values the spec does not list are
// no problem: they are shown as they came.)

const KIND_LABELS: Record<PayloadProblem["kind"], string> = {
  wrong_type: "Unreadable value",
  dropped_item: "Item set aside",
};

const MAX_RAW_CHARS = 200;

function rawPreview(raw: unknown): string {
  const text =
    raw === undefined
      ? "(absent)"
      : typeof raw === "string"
        ? JSON.stringify(raw)
        : (JSON.stringify(raw) ?? String(raw));
  return text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text;
}

export function PayloadProblems({ problems }: { problems: PayloadProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <DetailSection title="Data problems" id="payload-problems" count={problems.length}>
      <p className="mb-3 text-sm text-slate-600">
        The service sent values that do not match its published format. The account was kept; these values are shown as
        received.
      </p>
      <DataTable
        label="Data problems"
        testId="payload-problems"
        rows={problems}
        rowKey={(problem, index) => `${problem.path}-${index}`}
        columns={[
          { header: "Where", className: "font-mono text-xs", cell: (problem) => problem.path || "(pull)" },
          { header: "Problem", cell: (problem) => KIND_LABELS[problem.kind] ?? problem.kind },
          { header: "Detail", cell: (problem) => problem.message },
          {
            header: "Received",
            className: "break-all font-mono text-xs text-slate-600",
            cell: (problem) => rawPreview(problem.raw),
          },
        ]}
      />
    </DetailSection>
  );
}
