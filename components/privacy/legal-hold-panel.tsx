"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import type { FormAction } from "@/lib/core/form-state";
import { formatInstant } from "@/lib/format";
import type { LegalHold } from "@/lib/privacy/legal-holds";

// The pull's legal holds: what keeps it from disposal (its own hold, its account's), and, for
// admins, placing one on this pull or its whole account and lifting one, each with a reason.

export type LegalHoldPanelData = { holds: LegalHold[]; canManage: boolean };

export function LegalHoldPanel({
  pullId,
  panel,
  place,
  lift,
}: {
  pullId: string;
  panel: LegalHoldPanelData;
  place: FormAction;
  lift: FormAction;
}) {
  const { holds, canManage } = panel;
  if (!canManage && holds.length === 0) return null;
  const scopes = new Set(holds.map((hold) => hold.scope));
  return (
    <section
      aria-labelledby="legal-hold-title"
      className={cn(CARD_CLASS, "space-y-3 p-5")}
      data-testid="legal-hold-panel"
    >
      <h2 id="legal-hold-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        Legal hold {holds.length > 0 ? <Badge tone="warning">On hold</Badge> : null}
      </h2>
      {holds.length === 0 ? (
        <p className="text-sm text-slate-700">
          Not on hold: the retention schedule applies. A hold keeps this pull, or its whole account, from disposal until
          it is lifted.
        </p>
      ) : (
        <ul className="space-y-3">
          {holds.map((hold) => (
            <li key={hold.id} className="space-y-1 text-sm text-slate-700" data-testid="legal-hold">
              <p>
                <span className="font-medium text-slate-900">
                  {hold.scope === "ACCOUNT" ? "The whole account is on hold" : "This pull is on hold"}
                </span>{" "}
                since {formatInstant(hold.placedAt, "en-US", "UTC")} UTC
                {/* Why, and by whom, is for admins: a hold may name a matter the team need not read. */}
                {canManage
                  ? `, placed by ${hold.placedByName ?? "someone"}: ${hold.reason}`
                  : ": it will not be disposed of."}
              </p>
              {canManage ? (
                <ActionForm
                  action={lift}
                  inline
                  aria-label="Lift the hold"
                  submitLabel="Lift"
                  submitVariant="danger"
                  submitSize="sm"
                  pendingLabel="Lifting…"
                  keepValues
                >
                  <input type="hidden" name="pullId" value={pullId} />
                  <input type="hidden" name="holdId" value={hold.id} />
                  <Input
                    name="reason"
                    required
                    minLength={3}
                    maxLength={500}
                    placeholder="Why it is lifted"
                    aria-label="Why the hold is lifted"
                    className="w-72"
                  />
                </ActionForm>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canManage && scopes.size < 2 ? (
        <ActionForm
          action={place}
          aria-label="Place a legal hold"
          submitLabel="Place the hold"
          submitVariant="secondary"
          pendingLabel="Placing…"
          keepValues
        >
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">What to hold</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="scope"
                value="PULL"
                defaultChecked={!scopes.has("PULL")}
                disabled={scopes.has("PULL")}
              />
              This pull (its account is kept whole with it)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="scope"
                value="ACCOUNT"
                defaultChecked={scopes.has("PULL")}
                disabled={scopes.has("ACCOUNT")}
              />
              The whole account, pulls still to come included
            </label>
          </fieldset>
          <input type="hidden" name="pullId" value={pullId} />
          <Field id="legal-hold-reason" label="Reason" hint="A matter, a letter, a request: 3 to 500 characters.">
            {(control) => (
              <Textarea name="reason" required minLength={3} maxLength={500} rows={2} className="w-full" {...control} />
            )}
          </Field>
        </ActionForm>
      ) : null}
    </section>
  );
}
