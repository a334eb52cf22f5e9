"use client";

import { useActionState } from "react";
import { FormMessage } from "@/components/workflow/form-message";
import { humanize } from "@/lib/format";
import { IDLE, type FormAction } from "@/lib/workflow/form-state";

// The agency's alert rules: how far a renewal premium may rise per line before it alerts, the
// hour the daily digest goes out, and who gets the queue's alerts. A plain form.

type Props = {
  thresholds: Record<string, number | undefined>;
  lines: readonly string[];
  digestHour: number;
  queueAlertsTo: string;
  action: FormAction;
};

const input = "w-24 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

export function AlertRulesForm({ thresholds, lines, digestHour, queueAlertsTo, action: save }: Props) {
  const [state, action, pending] = useActionState(save, IDLE);
  return (
    <form
      action={action}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="Alert rules"
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Alert when a renewal premium rises by more than</legend>
        <div className="mt-2 grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <label className="flex items-center justify-between gap-2">
            <span>Every line (default)</span>
            <span>
              <input
                name="threshold.default"
                type="number"
                min={0}
                max={1000}
                step="any"
                required
                defaultValue={thresholds.default ?? 10}
                className={input}
              />{" "}
              %
            </span>
          </label>
          {lines.map((line) => (
            <label key={line} className="flex items-center justify-between gap-2">
              <span>{humanize(line)}</span>
              <span>
                <input
                  name={`threshold.${line}`}
                  type="number"
                  min={0}
                  max={1000}
                  step="any"
                  placeholder="default"
                  defaultValue={thresholds[line] ?? ""}
                  className={input}
                />{" "}
                %
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <span>Daily digest after</span>
          <select name="digestHour" defaultValue={String(digestHour)} className={input}>
            {Array.from({ length: 24 }, (_, hour) => (
              <option key={hour} value={hour}>
                {String(hour).padStart(2, "0")}:00 UTC
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2">
          <span>The queue&apos;s alerts go to</span>
          <select
            name="queueAlertsTo"
            defaultValue={queueAlertsTo}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
          >
            <option value="MANAGERS">Managers</option>
            <option value="ADMINS">Admins</option>
            <option value="NOBODY">Nobody (the inbox only)</option>
          </select>
        </label>
      </div>
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
        >
          {pending ? "Saving…" : "Save"}
        </button>
        <FormMessage state={state} />
      </div>
    </form>
  );
}

/** Today's digests at once. */
export function SendDigestsNowForm({ action: send }: { action: FormAction }) {
  const [state, action, pending] = useActionState(send, IDLE);
  return (
    <form action={action} className="flex flex-wrap items-center gap-3" aria-label="Send the digests now">
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
      >
        {pending ? "Sending…" : "Send now"}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
