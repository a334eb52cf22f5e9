import { PageHeader } from "./page-header";

// The frame of the pages a consumer opens from a link (reconnect, confirm a change): one centred
// card with the page's title, and under it a word on how their answer is handled, because a
// stranger's page asking for a password or a decision must earn trust.

export function ConsumerFrame({
  title,
  note,
  children,
}: {
  title: string;
  /** The closing word on what happens to what they enter. */
  note: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <PageHeader title={title} tone="brand" />
        <div className="mt-4">{children}</div>
        <p className="mt-8 border-t border-slate-100 pt-4 text-xs text-slate-500">{note}</p>
      </div>
    </main>
  );
}
