"use client";

import { ActionForm } from "@/components/ui/action-form";
import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { FormAction } from "@/lib/core/form-state";

// What AgencyZoom leads assume and who each user is there. With AgencyZoom reachable, its
// pipelines, stages and users are offered by name; otherwise (or for the lead source, which
// AgencyZoom's published API does not list) the id is typed.

type Option = { id: number; name: string };
type Props = {
  settings: {
    pipelineId: number | null;
    stageId: number | null;
    leadSourceId: number | null;
    country: string;
    fallbackAssigneeId: number | null;
    userMap: Record<string, number>;
  };
  pipelines: Array<{ id: number; name: string; stages: Option[] }> | null;
  employees: Array<{ id: number; name: string; email: string | null }> | null;
  users: Array<{ id: string; name: string; role: string }>;
  action: FormAction;
};

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

/** A choice among AgencyZoom's own options, or a typed id when there are none to offer. */
function IdControl({
  name,
  value,
  options,
  control,
  none = "Not chosen",
}: {
  name: string;
  value: number | null | undefined;
  options: Option[] | null;
  control: object;
  none?: string;
}) {
  if (!options)
    return <Input name={name} inputMode="numeric" defaultValue={text(value)} className="w-40" {...control} />;
  const known = value === null || value === undefined || options.some((o) => o.id === value);
  return (
    <Select name={name} defaultValue={text(value)} {...control}>
      <option value="">{none}</option>
      {known ? null : <option value={text(value)}>{`${value} (not in AgencyZoom's list)`}</option>}
      {options.map((o) => (
        <option key={o.id} value={o.id}>{`${o.name} (${o.id})`}</option>
      ))}
    </Select>
  );
}

export function AgencyzoomSettingsForm({ settings, pipelines, employees, users, action }: Props) {
  const stages = pipelines?.flatMap((p) => p.stages.map((s) => ({ id: s.id, name: `${p.name}: ${s.name}` }))) ?? null;
  const people = employees?.map((e) => ({ id: e.id, name: e.email ? `${e.name} <${e.email}>` : e.name })) ?? null;
  return (
    <ActionForm
      action={action}
      className={cn(CARD_CLASS, "space-y-4 p-4")}
      aria-label="AgencyZoom settings"
      submitLabel="Save"
      pendingLabel="Saving…"
    >
      <h2 className="text-lg font-semibold text-slate-900">What a lead assumes</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="az-pipeline" label="Pipeline" hint="Where new leads go in AgencyZoom.">
          {(control) => (
            <IdControl name="pipelineId" value={settings.pipelineId} options={pipelines} control={control} />
          )}
        </Field>
        <Field id="az-stage" label="Stage" hint="A stage of that pipeline.">
          {(control) => <IdControl name="stageId" value={settings.stageId} options={stages} control={control} />}
        </Field>
        <Field
          id="az-lead-source"
          label="Lead source id"
          hint="AgencyZoom's id of the lead source (Settings → Lead Sources in AgencyZoom); its API does not list them."
        >
          {(control) => (
            <IdControl name="leadSourceId" value={settings.leadSourceId} options={null} control={control} />
          )}
        </Field>
        <Field id="az-country" label="Country" hint="Two letters; AgencyZoom requires one on every lead.">
          {(control) => (
            <Input name="country" defaultValue={settings.country} maxLength={2} className="w-20" {...control} />
          )}
        </Field>
        <Field
          id="az-fallback"
          label="Fallback assignee"
          hint="The AgencyZoom user a lead goes to when the pull's owner is not mapped below."
        >
          {(control) => (
            <IdControl
              name="fallbackAssigneeId"
              value={settings.fallbackAssigneeId}
              options={people}
              control={control}
            />
          )}
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-lg font-semibold text-slate-900">Coverdesk users in AgencyZoom</legend>
        <p className="text-sm text-slate-600">
          A pull&apos;s lead is assigned to its owner&apos;s AgencyZoom user. Leave a user empty to use the fallback.
        </p>
        {users.map((user, index) => (
          <div key={user.id} className="flex flex-wrap items-end gap-3">
            <input type="hidden" name={`userMap.${index}.userId`} value={user.id} />
            <Field id={`az-user-${index}`} label={`${user.name} (${user.role.toLowerCase()})`}>
              {(control) => (
                <IdControl
                  name={`userMap.${index}.agencyzoomUserId`}
                  value={settings.userMap[user.id]}
                  options={people}
                  control={control}
                  none="Not mapped"
                />
              )}
            </Field>
          </div>
        ))}
      </fieldset>
    </ActionForm>
  );
}
