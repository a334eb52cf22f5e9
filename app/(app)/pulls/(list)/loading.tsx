export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-3">
      <span className="sr-only">Loading linked accounts…</span>
      <div className="h-8 w-56 animate-pulse rounded bg-slate-200" />
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="h-12 animate-pulse rounded bg-slate-100" />
      ))}
    </div>
  );
}
