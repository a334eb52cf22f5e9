"use client";

import { useId, useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogCancelButton, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { AGENCY_DPPA_PURPOSES, DPPA_PURPOSE_WORDS } from "@/lib/enrichment/purposes";
import { IDLE, type FormAction, type FormState } from "@/lib/core/form-state";

// One paid look-up, in two steps: the button opens the confirm dialog, which says the look-up is
// charged to the agency and, for a driver, asks the DPPA permissible purpose (and the date of
// birth when the carrier sent none). Only the confirm step sends `confirm=yes`; the server
// refuses a request without it. A refusal shows in the dialog; an accepted look-up closes it, and
// the kept answer is drawn by the server once the page revalidates.

type Props = {
  action: FormAction;
  pullId: string;
  kind: "PROPERTY_DATA" | "DRIVER_LICENSE" | "DRIVING_RECORD";
  subjectKey: string;
  /** "Look up property data", "Look up the driver licence"… */
  label: string;
  /** What is looked up, for the confirm step: "property data for 12 Elm St…". */
  about: string;
  /** A person look-up: the DPPA purpose is required. */
  askPurpose: boolean;
  /** The carrier sent no date of birth: ask for one ("required" for a licence). */
  askDateOfBirth: "no" | "required" | "optional";
  /** Asked before and failed: the button says so. */
  again?: boolean;
};

export function EnrichmentRequestForm(props: Props) {
  const { action, pullId, kind, subjectKey, label, about, askPurpose, askDateOfBirth, again } = props;
  const [open, setOpen] = useState(false);
  const [accepted, setAccepted] = useState<FormState>(IDLE);
  const id = useId();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="space-y-1">
        <DialogTrigger asChild>
          <Button variant="secondary" data-testid="enrichment-start">
            {again ? `${label} again` : label}
          </Button>
        </DialogTrigger>
        <FormMessage state={accepted} />
      </div>
      <DialogContent title={again ? `${label} again` : label}>
        <ActionForm
          action={action}
          keepValues
          onAnswer={(answer) => {
            if (answer.status !== "done") return;
            setAccepted(answer);
            setOpen(false);
          }}
          submitLabel="Confirm the charge and look up"
          pendingLabel="Looking up…"
          className="space-y-3"
          data-testid="enrichment-confirm"
          besideSubmit={<DialogCancelButton />}
        >
          {({ invalid }) => (
            <>
              <input type="hidden" name="pullId" value={pullId} />
              <input type="hidden" name="kind" value={kind} />
              <input type="hidden" name="subjectKey" value={subjectKey} />
              <input type="hidden" name="confirm" value="yes" />
              <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                This look-up of {about} is <strong>charged to the agency</strong> by the service. Its answer is kept on
                this account, so the same question is never paid for twice.
              </p>
              {askPurpose ? (
                <Field
                  id={`${id}-purpose`}
                  label="Permissible purpose (required by the Driver's Privacy Protection Act)"
                >
                  {(control) => (
                    <Select
                      {...control}
                      {...invalid("purpose")}
                      name="purpose"
                      required
                      defaultValue=""
                      className="mt-1 block w-full"
                    >
                      <option value="">Choose the purpose…</option>
                      {AGENCY_DPPA_PURPOSES.map((purpose) => (
                        <option key={purpose} value={purpose}>
                          {DPPA_PURPOSE_WORDS[purpose]}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              ) : null}
              {askDateOfBirth !== "no" ? (
                <Field
                  id={`${id}-dob`}
                  label={`Date of birth (MM/DD/YYYY)${
                    askDateOfBirth === "optional" ? ", or leave empty to use the licence on file" : ""
                  }`}
                >
                  {(control) => (
                    <Input
                      {...control}
                      {...invalid("dateOfBirth")}
                      name="dateOfBirth"
                      inputMode="numeric"
                      placeholder="MM/DD/YYYY"
                      required={askDateOfBirth === "required"}
                      autoComplete="off"
                      className="mt-1 block w-40"
                    />
                  )}
                </Field>
              ) : null}
            </>
          )}
        </ActionForm>
      </DialogContent>
    </Dialog>
  );
}
