"use client";

import { useRouter } from "next/navigation";
import { ActionForm, SubmitButton } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/core/form-state";

// The consumer's answer: Confirm or Decline, one button each. The outcome is the page's next
// render (the server reads it back from what the service said).

export function ServicingAnswerForm({ token, action }: { token: string; action: FormAction }) {
  const router = useRouter();
  return (
    <ActionForm action={action} onAnswer={() => router.refresh()} className="space-y-3" aria-label="Your answer">
      <input type="hidden" name="token" value={token} />
      <SubmitButton name="answer" value="confirm" size="lg" className="w-full" pendingLabel="Sending…">
        Confirm the change
      </SubmitButton>
      <SubmitButton name="answer" value="decline" size="lg" variant="secondary" className="w-full">
        Decline
      </SubmitButton>
    </ActionForm>
  );
}
