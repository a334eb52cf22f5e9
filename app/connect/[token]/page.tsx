import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ConsumerCard } from "@/components/connect/consumer-card";
import { FollowReconnect } from "@/components/connect/follow-reconnect";
import { ReconnectFinished } from "@/components/connect/reconnect-finished";
import { ReconnectStepForm } from "@/components/connect/reconnect-step-form";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { loadConnectPage } from "@/lib/monitoring/consumer-page";
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
          <ReconnectFinished step={step} carrier={carrier} />
        )}
      </div>
      {following ? <FollowReconnect token={token} version={page.version} /> : null}
    </ConsumerCard>
  );
}
