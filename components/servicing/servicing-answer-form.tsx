"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { IDLE, type FormAction } from "@/lib/core/form-state";

// The consumer's answer: Confirm or Decline, one button each. The outcome is the page's next
// render (the server reads it back from what the service said).

const button = "w-full rounded-md px-4 py-2 font-semibold disabled:opacity-60";

export function ServicingAnswerForm({ token, action: answer }: { token: string; action: FormAction }) {
  const router = useRouter();
  const [state, action, pending] = useActionState(answer, IDLE);
  useEffect(() => {
    if (state.status !== "idle") router.refresh();
  }, [state, router]);
  return (
    <form action={action} className="space-y-3" aria-label="Your answer">
      <input type="hidden" name="token" value={token} />
      <button
        type="submit"
        name="answer"
        value="confirm"
        disabled={pending}
        className={`${button} bg-brand-600 text-white hover:bg-brand-700`}
      >
        {pending ? "Sending…" : "Confirm the change"}
      </button>
      <button
        type="submit"
        name="answer"
        value="decline"
        disabled={pending}
        className={`${button} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}
      >
        Decline
      </button>
      <FormMessage state={state} />
    </form>
  );
}
