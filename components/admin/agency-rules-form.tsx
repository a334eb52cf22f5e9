"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { humanize } from "@/lib/format";
import type { FormAction } from "@/lib/core/form-state";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ActionForm } from "@/components/ui/action-form";

// The agency's rules, one form saved (and audited) as a whole: the renewal lead time and the
// refresh budget, how far a renewal premium may rise per line before it alerts, the hour the
// daily digest goes out and who gets the queue's alerts, and the speed-to-lead rule.

type Props = {
  rules: {
    jumpThresholds: Record<string, number | undefined>;
    digestHour: number;
    queueAlertsTo: string;
    leadTimeDays: number;
    refreshBudgetPerMonth: number | null;
    speedToLeadMinutes: number | null;
    speedToLeadAction: string;
  };
  lines: readonly string[];
  action: FormAction;
};

const legend = "text-sm font-medium text-slate-900";

export function AgencyRulesForm({ rules, lines, action: save }: Props) {
  const thresholds = rules.jumpThresholds;
  return (
    <ActionForm
      action={save}
      className={cn(CARD_CLASS, "space-y-5 p-4")}
      aria-label="Agency rules"
      submitLabel="Save the rules"
      pendingLabel="Saving…"
    >
      <fieldset className="space-y-2 text-sm">
        <legend className={legend}>Renewals</legend>
        <label className="flex flex-wrap items-center gap-2">
          <span>Refresh a monitored account, and bring a lost deal back,</span>
          <Input
            name="leadTimeDays"
            type="number"
            min={1}
            max={365}
            required
            defaultValue={rules.leadTimeDays}
            className="w-24"
          />
          <span>days before its X-date</span>
        </label>
        <label className="flex flex-wrap items-center gap-2">
          <span>Monthly refresh budget</span>
          <Input
            name="refreshBudgetPerMonth"
            type="number"
            min={1}
            placeholder="none"
            defaultValue={rules.refreshBudgetPerMonth ?? ""}
            className="w-24"
          />
          <span className="text-slate-600">refreshes (each is billed like a pull; empty for no budget)</span>
        </label>
      </fieldset>
      <fieldset>
        <legend className={legend}>Alert when a renewal premium rises by more than</legend>
        <div className="mt-2 grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <label className="flex items-center justify-between gap-2">
            <span>Every line (default)</span>
            <span>
              <Input
                name="jumpThresholds.default"
                type="number"
                min={0}
                max={1000}
                step="any"
                required
                defaultValue={thresholds.default ?? 10}
                className="w-24"
              />{" "}
              %
            </span>
          </label>
          {lines.map((line) => (
            <label key={line} className="flex items-center justify-between gap-2">
              <span>{humanize(line)}</span>
              <span>
                <Input
                  name={`jumpThresholds.${line}`}
                  type="number"
                  min={0}
                  max={1000}
                  step="any"
                  placeholder="default"
                  defaultValue={thresholds[line] ?? ""}
                  className="w-24"
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
          <Select name="digestHour" defaultValue={String(rules.digestHour)} className="w-24">
            {Array.from({ length: 24 }, (_, hour) => (
              <option key={hour} value={hour}>
                {String(hour).padStart(2, "0")}:00 UTC
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2">
          <span>The queue&apos;s alerts go to</span>
          <Select name="queueAlertsTo" defaultValue={rules.queueAlertsTo}>
            <option value="MANAGERS">Managers</option>
            <option value="ADMINS">Admins</option>
            <option value="NOBODY">Nobody (the inbox only)</option>
          </Select>
        </label>
      </div>
      <fieldset className="space-y-2 text-sm">
        <legend className={legend}>Speed to lead</legend>
        <label className="flex flex-wrap items-center gap-2">
          <span>When a new linked account waits untouched for</span>
          <Input
            name="speedToLeadMinutes"
            type="number"
            min={5}
            max={10080}
            placeholder="off"
            defaultValue={rules.speedToLeadMinutes ?? ""}
            className="w-24"
          />
          <span>minutes (empty: the rule is off)</span>
        </label>
        <label className="flex flex-wrap items-center gap-2">
          <span>then</span>
          <Select name="speedToLeadAction" defaultValue={rules.speedToLeadAction}>
            <option value="RAISE">raise it to the managers</option>
            <option value="REASSIGN">reassign it by the automatic assignment rules</option>
          </Select>
        </label>
      </fieldset>
    </ActionForm>
  );
}

/** Today's digests at once. */
export function SendDigestsNowForm({ action }: { action: FormAction }) {
  return (
    <ActionForm
      action={action}
      inline
      aria-label="Send the digests now"
      submitVariant="secondary"
      submitLabel="Send now"
      pendingLabel="Sending…"
    />
  );
}
