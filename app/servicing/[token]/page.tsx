import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { FollowServicing } from "@/components/servicing/follow-servicing";
import { ServicingAnswerForm } from "@/components/servicing/servicing-answer-form";
import { ServicingCard } from "@/components/servicing/servicing-card";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { loadServicingPage, type ServicingStep } from "@/lib/servicing/consumer-page";
import { answerServicingPageAction } from "./actions";

// GET /servicing/[token] — the page where a consumer confirms (or declines) a change their agency
// asked their insurance company for: no login, no app chrome, plain words. Its address carries the
// token; it is never sent on as a referrer, nor indexed.

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Confirm a change to your policy",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

function Outcome({ step }: { step: Exclude<ServicingStep, { kind: "ready" }> }) {
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

export default async function ServicingPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = await loadServicingPage(await getDb(), env().service, token, clientAddress(await headers()));
  if (page.kind === "not-found") notFound();
  if (page.kind === "wait") {
    return (
      <ServicingCard title="Please wait a moment">
        <p role="alert">{page.message}</p>
      </ServicingCard>
    );
  }
  const { step } = page;
  return (
    <ServicingCard title="Confirm a change to your policy">
      <p className="text-slate-700">Your insurance agency asked {page.carrier} to make this change to your policy:</p>
      <p
        className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-slate-900"
        data-testid="servicing-change"
      >
        {page.change}
      </p>
      {page.carrierSummary ? (
        <p className="mt-2 text-sm text-slate-600">
          {page.carrier} describes it as: {page.carrierSummary}
        </p>
      ) : null}
      <div className="mt-6">
        {step.kind === "ready" ? (
          <>
            <p className="mb-4 text-slate-700">
              If this is right, confirm it and {page.carrier} will make the change. If not, decline it and nothing
              changes.
            </p>
            <ServicingAnswerForm token={token} action={answerServicingPageAction} />
          </>
        ) : (
          <Outcome step={step} />
        )}
      </div>
      {step.kind === "preparing" || step.kind === "submitting" ? <FollowServicing /> : null}
    </ServicingCard>
  );
}
