import type { ServicingStep } from "@/lib/servicing/consumer-page";

// The confirm page's state when there is nothing to answer: being prepared, being made, made,
// declined, expired or refused.

export function ServicingOutcome({ step }: { step: Exclude<ServicingStep, { kind: "ready" }> }) {
  switch (step.kind) {
    case "preparing":
      return (
        <p role="status" className="text-slate-700" data-testid="servicing-preparing">
          Your insurance company is getting this change ready. This page will ask you to confirm it in a moment.
        </p>
      );
    case "submitting":
      return (
        <p role="status" className="text-slate-700" data-testid="servicing-submitting">
          Thank you, you confirmed the change. Your insurance company is making it now.
        </p>
      );
    case "done":
      return (
        <p role="status" className="text-lg font-medium text-emerald-800" data-testid="servicing-done">
          Done. Your insurance company has made the change. You can close this page.
        </p>
      );
    case "declined":
      return (
        <p role="status" className="text-slate-800" data-testid="servicing-declined">
          You declined this change. Nothing was changed on your policy.
        </p>
      );
    case "expired":
      return (
        <p role="alert" className="text-slate-800">
          This link has expired. Ask your agent for a new one.
        </p>
      );
    case "refused":
      return (
        <p role="alert" className="text-slate-800">
          {step.reason}
        </p>
      );
  }
}
