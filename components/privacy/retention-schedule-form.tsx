"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { ActionForm } from "@/components/ui/action-form";
import { Input } from "@/components/ui/input";
import type { FormAction } from "@/lib/core/form-state";
import {
  RETENTION_KIND_INFO,
  RETENTION_KINDS,
  type RetentionKind,
  type RetentionSchedule,
} from "@/lib/privacy/retention-kinds";

// The retention schedule, one form saved (and audited) as a whole: per kind of record, Keep or
// Dispose of it N months after its clock starts, within the kind's floor and ceiling.

export function RetentionScheduleForm({ schedule, action }: { schedule: RetentionSchedule; action: FormAction }) {
  return (
    <ActionForm
      action={action}
      className={cn(CARD_CLASS, "space-y-4 p-4")}
      aria-label="Retention schedule"
      submitLabel="Save the schedule"
      pendingLabel="Saving…"
      keepValues
    >
      {({ invalid }) =>
        RETENTION_KINDS.map((kind) => <KindFields key={kind} kind={kind} months={schedule[kind]} invalid={invalid} />)
      }
    </ActionForm>
  );
}

function KindFields({
  kind,
  months,
  invalid,
}: {
  kind: RetentionKind;
  months: number | null;
  invalid: (name: string) => { "aria-invalid"?: true; "aria-describedby"?: string };
}) {
  const info = RETENTION_KIND_INFO[kind];
  const long = info.warnAboveMonths !== null && (months === null || months > info.warnAboveMonths);
  return (
    <fieldset className="space-y-1 text-sm" data-testid={`retention-${kind}`}>
      <legend className="font-medium text-slate-900">{info.label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2">
          <input type="radio" name={`${kind}.mode`} value="MONTHS" defaultChecked={months !== null} />
          <span>Dispose of</span>
          <Input
            name={`${kind}.months`}
            type="number"
            min={info.minMonths}
            max={info.maxMonths}
            defaultValue={months ?? info.defaultMonths}
            aria-label={`${info.label}: months`}
            className="w-24"
            {...invalid(`${kind}.months`)}
          />
          <span>months {info.clock}</span>
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${kind}.mode`} value="KEEP" defaultChecked={months === null} />
          <span>Keep</span>
        </label>
      </div>
      <p className="text-slate-600">
        Then {info.disposal}. From {info.minMonths} to {info.maxMonths} months; the default is {info.defaultMonths}.
        {info.floorWhy ? ` ${info.floorWhy}` : ""}
      </p>
      {long ? (
        <p className="text-amber-800" data-testid={`retention-${kind}-long`}>
          Longer than two years: the FTC Safeguards Rule asks that customer information go within two years of its last
          use unless a business or legal reason needs it. Note that reason.
        </p>
      ) : null}
    </fieldset>
  );
}
