import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { FollowServicing } from "@/components/servicing/follow-servicing";
import { ServicingAnswerForm } from "@/components/servicing/servicing-answer-form";
import { ServicingCard } from "@/components/servicing/servicing-card";
import { ServicingOutcome } from "@/components/servicing/servicing-outcome";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { loadServicingPage, STAFF_ANSWER_REFUSED } from "@/lib/servicing/consumer-page";
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
  // Opened in a browser signed in to Coverdesk: staff, who may read the change but not answer it.
  const staff = step.kind === "ready" ? await getSessionUser() : null;
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
        {step.kind === "ready" && staff ? (
          <p role="alert" className="text-amber-800" data-testid="servicing-staff-refused">
            {STAFF_ANSWER_REFUSED}
          </p>
        ) : step.kind === "ready" ? (
          <>
            <p className="mb-4 text-slate-700">
              If this is right, confirm it and {page.carrier} will make the change. If not, decline it and nothing
              changes.
            </p>
            <ServicingAnswerForm token={token} action={answerServicingPageAction} />
          </>
        ) : (
          <ServicingOutcome step={step} />
        )}
      </div>
      {step.kind === "preparing" || step.kind === "submitting" ? <FollowServicing /> : null}
    </ServicingCard>
  );
}
