import type { OutboxEntry } from "@/lib/alerts/mailer";
import { Card } from "@/components/ui/card";

// Development's outbox: the digests that would have been mailed, newest first, each readable in
// place. Text only: a message's HTML is never rendered here.

export function MailOutbox({ entries }: { entries: OutboxEntry[] }) {
  return (
    <Card aria-labelledby="outbox-title" className="space-y-3">
      <h2 id="outbox-title" className="text-lg font-semibold text-slate-900">
        Outbox
      </h2>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">
          Empty. Press Send now, or wait for the digest hour, once alerts are open.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="outbox">
          {entries.map((entry) => (
            <li key={entry.file} className="py-2">
              <details>
                <summary className="cursor-pointer">
                  <span className="font-medium text-slate-900">{entry.subject}</span>{" "}
                  <span className="text-slate-600">
                    to {entry.to} · {entry.date}
                  </span>
                </summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap text-slate-800">
                  {entry.text}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
