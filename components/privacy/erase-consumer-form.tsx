"use client";

import { useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogCancelButton, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/form-message";
import { IDLE, type FormAction, type FormState } from "@/lib/core/form-state";

// Erasing a consumer, in two steps: the button opens a dialog that says what goes and that it
// cannot be undone; only its confirm step sends `confirm=erase`, which the server requires.
export function EraseConsumerForm({
  action,
  requestId,
  pulls,
}: {
  action: FormAction;
  requestId: string;
  pulls: number;
}) {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<FormState>(IDLE);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="space-y-1">
        <DialogTrigger asChild>
          <Button variant="danger" data-testid="erase-start">
            Erase this consumer
          </Button>
        </DialogTrigger>
        <FormMessage state={answer} />
      </div>
      <DialogContent title="Erase this consumer?">
        <ActionForm
          action={action}
          onAnswer={(state) => {
            if (state.status !== "done") return;
            setAnswer(state);
            setOpen(false);
          }}
          submitLabel="Erase everything"
          pendingLabel="Erasing…"
          className="space-y-3"
          data-testid="erase-confirm"
          besideSubmit={<DialogCancelButton />}
        >
          <input type="hidden" name="requestId" value={requestId} />
          <input type="hidden" name="confirm" value="erase" />
          <p className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            {pulls} linked account{pulls === 1 ? "" : "s"} and <strong>everything of them</strong> go: policies,
            vehicles, homes, documents, earlier versions, X-dates, cross-sell rows, alerts, look-up answers, decisions
            and the webhooks that brought them. The audit trail keeps one entry without their name. This cannot be
            undone, and a later sync will not bring them back.
          </p>
        </ActionForm>
      </DialogContent>
    </Dialog>
  );
}
