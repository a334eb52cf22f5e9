import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import {
  ConfirmSecondFactorForm,
  RemoveSecondFactorForm,
  RenewRecoveryCodesForm,
  StartSecondFactorForm,
} from "@/components/account/second-factor-forms";
import { AddPasskeyForm, RemovePasskeyForm } from "@/components/account/passkey-forms";
import { DataTable } from "@/components/ui/data-table";
import { getDb } from "@/lib/database";
import { requireUserWhileEnrolling } from "@/lib/auth/session";
import { loadAccountSecurityPage } from "@/lib/loaders/account-security";
import {
  confirmSecondFactorAction,
  registerPasskeyAction,
  removePasskeyAction,
  removeSecondFactorAction,
  renewRecoveryCodesAction,
  startPasskeyAction,
  startSecondFactorAction,
} from "./actions";

export const metadata: Metadata = { title: "Security" };

// Anyone signed in: their own sign-in's second factor. The one page open to a user the agency
// requires to have one and who has none yet (lib/auth/session.ts sends them here).
export default async function AccountSecurityPage() {
  const { user, mustEnrol } = await requireUserWhileEnrolling();
  const page = await loadAccountSecurityPage(await getDb(), user);
  return (
    <div className="space-y-4">
      <PageHeader title="Security" description="How you sign in to Coverdesk." />
      {mustEnrol ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="enrol-first">
          Your agency requires a second factor. Set one up below to continue: until then, this is the only page you can
          open.
        </p>
      ) : page.required ? (
        <p className="text-sm text-slate-600" data-testid="second-factor-required">
          Your agency requires a second factor for everyone.
        </p>
      ) : null}
      <Card aria-labelledby="second-factor-heading" className="space-y-3">
        <h2 id="second-factor-heading" className="text-lg font-semibold text-slate-900">
          Authenticator app
        </h2>
        {page.factor === "none" ? (
          <>
            <p className="text-sm text-slate-700">
              Off. With an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy…), sign-in
              asks for the 6-digit code it shows after your password, so your password alone no longer opens your
              account.
            </p>
            <StartSecondFactorForm action={startSecondFactorAction} />
          </>
        ) : null}
        {page.factor === "pending" ? (
          <>
            <p className="text-sm text-slate-700">
              Not on yet. Scan this QR code with your authenticator app, or type the key below into it, then enter the
              code the app shows.
            </p>
            {/* eslint-disable-next-line @next/next/no-img-element -- an SVG drawn on the server as a data: address; nothing to optimise */}
            <img
              src={`data:image/svg+xml;base64,${Buffer.from(page.qrSvg).toString("base64")}`}
              alt="QR code to scan with your authenticator app"
              width={200}
              height={200}
              className="rounded border border-slate-200"
            />
            <p className="text-sm text-slate-700">
              Key:{" "}
              <code className="font-mono text-sm text-slate-900" data-testid="totp-secret">
                {page.secretGroups.join(" ")}
              </code>
            </p>
            <ConfirmSecondFactorForm action={confirmSecondFactorAction} />
            <StartSecondFactorForm action={startSecondFactorAction} again />
          </>
        ) : null}
        {page.factor === "confirmed" ? (
          <>
            <p className="text-sm text-slate-700" data-testid="second-factor-on">
              On since <RelativeTime iso={page.confirmedAt.toISOString()} />: sign-in asks for your app&apos;s code
              after your password. {page.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            <RenewRecoveryCodesForm action={renewRecoveryCodesAction} />
            <RemoveSecondFactorForm action={removeSecondFactorAction} />
          </>
        ) : null}
      </Card>
      <Card aria-labelledby="passkeys-heading" className="space-y-3">
        <h2 id="passkeys-heading" className="text-lg font-semibold text-slate-900">
          Passkeys
        </h2>
        <p className="text-sm text-slate-700">
          A passkey is kept by this device (Touch ID, Windows Hello, your phone) or by a security key. With one, the
          second step of sign-in is your fingerprint, face or key instead of the app&apos;s code.
        </p>
        <DataTable
          label="Your passkeys"
          testId="passkeys"
          rows={page.passkeys}
          rowKey={(passkey) => passkey.id}
          rowTestId="passkey-row"
          empty={<p className="text-sm text-slate-600">No passkey yet.</p>}
          columns={[
            { header: "Name", cell: (passkey) => passkey.name },
            { header: "Added", cell: (passkey) => <RelativeTime iso={passkey.createdAt.toISOString()} /> },
            {
              header: "Last used",
              cell: (passkey) =>
                passkey.lastUsedAt ? <RelativeTime iso={passkey.lastUsedAt.toISOString()} /> : "Not yet",
            },
            {
              header: "Remove",
              cell: (passkey) => (
                <RemovePasskeyForm passkeyId={passkey.id} name={passkey.name} action={removePasskeyAction} />
              ),
            },
          ]}
        />
        <AddPasskeyForm start={startPasskeyAction} register={registerPasskeyAction} />
      </Card>
    </div>
  );
}
