// The frame of the consumer's confirm page: one centred card, and a word on what confirming does.
export function ServicingCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold text-brand-900">{title}</h1>
        <div className="mt-4">{children}</div>
        <p className="mt-8 border-t border-slate-100 pt-4 text-xs text-slate-500">
          Your insurance agency asked for this change on your behalf. Nothing changes on your policy unless you confirm
          it here; your answer goes, over an encrypted connection, to the secure service that connects to your insurance
          company.
        </p>
      </div>
    </main>
  );
}
