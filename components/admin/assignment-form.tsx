"use client";

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { humanize } from "@/lib/format";
import type { FormAction } from "@/lib/core/form-state";
import { Select } from "@/components/ui/select";
import { Input } from "@/components/ui/input";
import { ActionForm } from "@/components/ui/action-form";

// Off, round-robin among active agents, or rules (first match wins) with a fallback. Rules are
// rows of a plain form: three empty rows are always offered, so no script is needed to add one.

type Rule = { state?: string; lineOfBusiness?: string; assigneeId?: string; officeId?: string };
type Props = {
  mode: string;
  rules: Rule[];
  fallbackAssigneeId: string | null;
  people: Array<{ id: string; name: string }>;
  /** The offices a rule may route to (their queue); none when the agency has no offices. */
  offices: Array<{ id: string; name: string }>;
  linesOfBusiness: string[];
  /** The page's save action. */ action: FormAction;
};

export function AssignmentForm({
  mode,
  rules,
  fallbackAssigneeId,
  people,
  offices,
  linesOfBusiness,
  action: save,
}: Props) {
  const rows: Array<Rule | null> = [...rules, null, null, null];
  return (
    <ActionForm
      action={save}
      className={cn(CARD_CLASS, "space-y-4 p-4")}
      aria-label="Automatic assignment"
      submitLabel="Save"
      pendingLabel="Saving…"
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">When a new pull succeeds</legend>
        <div className="mt-2 space-y-1 text-sm">
          {[
            ["OFF", "Leave it in the unassigned queue"],
            ["ROUND_ROBIN", "Give it to the next active agent, in turn"],
            ["RULES", "Follow the rules below (first match wins), else the fallback"],
          ].map(([value, label]) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name="mode" value={value} defaultChecked={mode === value} /> {label}
            </label>
          ))}
        </div>
      </fieldset>
      <DataTable
        label="Rules"
        caption="Rules"
        rows={rows.map((rule, index) => ({ rule, index }))}
        rowKey={({ index }) => String(index)}
        columns={[
          { header: "#", className: "text-slate-500", cell: ({ index }) => index + 1 },
          {
            header: "State (two letters)",
            cell: ({ rule, index }) => (
              <Input
                name={`rules.${index}.state`}
                defaultValue={rule?.state ?? ""}
                maxLength={2}
                aria-label={`Rule ${index + 1} state`}
                className="w-20 uppercase"
              />
            ),
          },
          {
            header: "Line of business",
            cell: ({ rule, index }) => (
              <Select
                name={`rules.${index}.lineOfBusiness`}
                defaultValue={rule?.lineOfBusiness ?? ""}
                aria-label={`Rule ${index + 1} line of business`}
              >
                <option value="">Any line</option>
                {linesOfBusiness.map((l) => (
                  <option key={l} value={l}>
                    {humanize(l)}
                  </option>
                ))}
              </Select>
            ),
          },
          {
            header: "Goes to",
            cell: ({ rule, index }) => (
              <Select
                name={`rules.${index}.assigneeId`}
                defaultValue={rule?.assigneeId ?? ""}
                aria-label={`Rule ${index + 1} goes to`}
              >
                <option value="">(no rule)</option>
                {people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Select>
            ),
          },
          ...(offices.length > 0
            ? [
                {
                  header: "Or an office's queue",
                  cell: ({ rule, index }: { rule: Rule | null; index: number }) => (
                    <Select
                      name={`rules.${index}.officeId`}
                      defaultValue={rule?.officeId ?? ""}
                      aria-label={`Rule ${index + 1} office queue`}
                    >
                      <option value="">(no office)</option>
                      {offices.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.name}
                        </option>
                      ))}
                    </Select>
                  ),
                },
              ]
            : []),
        ]}
      />
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span>Fallback when no rule matches:</span>
        <Select name="fallbackAssigneeId" defaultValue={fallbackAssigneeId ?? ""}>
          <option value="">The unassigned queue</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </label>
    </ActionForm>
  );
}
