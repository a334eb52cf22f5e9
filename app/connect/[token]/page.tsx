import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ConsumerCard } from "@/components/connect/consumer-card";
import { FollowReconnect } from "@/components/connect/follow-reconnect";
import { HostedReconnect } from "@/components/connect/hosted-reconnect";
import { ReconnectStepForm } from "@/components/connect/reconnect-step-form";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { loadConnectPage } from "@/lib/monitoring/consumer-page";
import type { ReconnectStep } from "@/lib/monitoring/reconnect-page";
import { clientAddress } from "@/lib/security/client-address";
import { answerReconnectPageAction } from "./actions";

// The reconnect page Coverdesk hosts for a consumer: no login, no app chrome, plain words.
// Its address carries the token; it is never sent on as a referrer, nor indexed.

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Reconnect your insurance account",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

function Finished({
  step,
  carrier,
}: {
  step: Extract<ReconnectStep, { kind: "done" | "closed" | "expired" | "hosted" }>;
  carrier: string;
}) {
  if (step.kind === "hosted") return <HostedReconnect url={step.url} carrier={carrier} />;
  if (step.kind === "done") {
    return (
      <div role="status" data-testid="reconnect-done">
        <p className="text-lg font-medium text-emerald-800">You are reconnected.</p>
        <p className="mt-2 text-slate-700">
          Your agency will see your up-to-date policies shortly. You can close this page.
        </p>
      </div>
    );
  }
  if (step.kind === "expired")
    return (
      <p role="alert" className="text-slate-800">
        This link has expired. Ask your agent for a new one.
      </p>
    );
  return (
    <p role="alert" className="text-slate-800">
      {step.reason}
    </p>
  );
}

export default async function ConnectPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = await loadConnectPage(await getDb(), env().service, token, clientAddress(await headers()));
  if (page.kind === "not-found") notFound();
  if (page.kind === "wait") {
    return (
      <ConsumerCard title="Please wait a moment">
        <p role="alert">{page.message}</p>
      </ConsumerCard>
    );
  }
  const { step, carrier } = page;
  const following = step.kind !== "done" && step.kind !== "closed" && step.kind !== "expired" && step.kind !== "hosted";
  return (
    <ConsumerCard title={`Reconnect your ${carrier} account`}>
      <p className="text-slate-700">
        Your insurance agency keeps your policy details up to date through a secure connection to {carrier}. That
        connection needs you to sign in again.
      </p>
      <div className="mt-6">
        {following ? (
          <ReconnectStepForm
            token={token}
            step={step}
            carrier={carrier}
            login={page.login}
            action={answerReconnectPageAction}
          />
        ) : (
          <Finished step={step} carrier={carrier} />
        )}
      </div>
      {following ? <FollowReconnect token={token} version={page.version} /> : null}
    </ConsumerCard>
  );
}
