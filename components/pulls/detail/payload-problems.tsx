import { DetailSection } from "./detail-section";
import type { PayloadProblem } from "@/lib/service/schemas";

// What the service sent that did not fit its own spec, for admins: the pull was kept, and
// these values were read as empty, kept as unknown, or the item was set aside.

const KIND_LABELS: Record<PayloadProblem["kind"], string> = {
  wrong_type: "Unreadable value",
  unknown_enum: "Value not in the spec",
  dropped_item: "Item set aside",
};

const MAX_RAW_CHARS = 200;

function rawPreview(raw: unknown): string {
  const text = raw === undefined ? "(absent)" : typeof raw === "string" ? JSON.stringify(raw) : (JSON.stringify(raw) ?? String(raw));
  return text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text;
}

export function PayloadProblems({ problems }: { problems: PayloadProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <DetailSection title="Data problems" id="payload-problems" count={problems.length}>
      <p className="mb-3 text-sm text-slate-600">
        The service sent values that do not match its published format. The account was kept; these values are shown as received.
      </p>
      <div role="region" aria-label="Data problems table" tabIndex={0} className="overflow-x-auto">
        <table className="min-w-full text-left text-sm" data-testid="payload-problems">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">Where</th>
              <th scope="col" className="py-1 pr-4 font-medium">Problem</th>
              <th scope="col" className="py-1 pr-4 font-medium">Detail</th>
              <th scope="col" className="py-1 font-medium">Received</th>
            </tr>
          </thead>
          <tbody>
            {problems.map((problem, index) => (
              <tr key={`${problem.path}-${index}`} className="align-top">
                <td className="py-1.5 pr-4 font-mono text-xs">{problem.path || "(pull)"}</td>
                <td className="py-1.5 pr-4">{KIND_LABELS[problem.kind] ?? problem.kind}</td>
                <td className="py-1.5 pr-4">{problem.message}</td>
                <td className="py-1.5 break-all font-mono text-xs text-slate-600">{rawPreview(problem.raw)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </DetailSection>
  );
}
