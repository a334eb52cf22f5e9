import { humanize } from "@/lib/format";

const TONES: Record<string, string> = {
  SUCCESS: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  NOT_AUTHENTICATED: "bg-amber-50 text-amber-800 ring-amber-200",
  PROVIDER_ERROR: "bg-red-50 text-red-800 ring-red-200",
  INTERNAL_ERROR: "bg-red-50 text-red-800 ring-red-200",
  VALIDATION_ERROR: "bg-red-50 text-red-800 ring-red-200",
  // Inbox and sync states share the badge.
  DONE: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  FAILED: "bg-red-50 text-red-800 ring-red-200",
  PROCESSING: "bg-sky-50 text-sky-800 ring-sky-200",
  RUNNING: "bg-sky-50 text-sky-800 ring-sky-200",
};

export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status] ?? "bg-slate-100 text-slate-700 ring-slate-200";
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>
      {humanize(status)}
    </span>
  );
}
