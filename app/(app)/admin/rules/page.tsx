import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { AgencyRulesForm, SendDigestsNowForm } from "@/components/admin/agency-rules-form";
import { MailOutbox } from "@/components/admin/mail-outbox";
import { RefreshForecastTable } from "@/components/admin/refresh-forecast";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { THRESHOLD_LINES } from "@/lib/rules/agency-rules";
import { loadAgencyRulesPage } from "@/lib/loaders/rules";
import { saveAgencyRulesAction, sendDigestsNowAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Agency rules" };

// GET /admin/rules — the agency's rules, the refreshes they forecast, the daily digest, and
// (without SMTP) the outbox.
export default async function AgencyRulesPage() {
  await requirePermission("rules:manage");
  // The primary: the form edits the rules, and the forecast is stored, a read of one row.
  const page = await loadAgencyRulesPage(await getDb(), env());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Agency rules"
        description={
          <>
            When monitored accounts are refreshed and lost deals come back, what a refresh alerts on, when the digest
            goes out, and how fast a new linked account must be worked. Every change is in the audit trail.
          </>
        }
      />
      <AgencyRulesForm rules={page.rules} lines={THRESHOLD_LINES} action={saveAgencyRulesAction} />
      <RefreshForecastTable forecast={page.forecast} leadTimeDays={page.rules.leadTimeDays} asOf={page.forecastAsOf} />
      <Card aria-labelledby="digest-title" className="space-y-3">
        <h2 id="digest-title" className="text-lg font-semibold text-slate-900">
          Daily digest
        </h2>
        <p className="text-sm text-slate-700" data-testid="mail-route">
          {page.smtpHost
            ? `Each person's new alerts are mailed once a day through ${page.smtpHost}.`
            : `No mail server is set (COVERDESK_SMTP_URL), so digests are written as .eml files to ${page.outboxDir} and listed below: no mail leaves this machine.`}
        </p>
        <p className="text-sm text-slate-700">
          {page.runs.length === 0
            ? "No digest has gone out yet."
            : `Last digests: ${page.runs.map((run) => `${run.day} (${run.mails ?? "sending"}${run.mails === 1 ? " mail" : run.mails === null ? "" : " mails"})`).join(", ")}.`}
        </p>
        <SendDigestsNowForm action={sendDigestsNowAction} />
      </Card>
      {page.smtpHost ? null : <MailOutbox entries={page.outbox} />}
      <Card aria-labelledby="review-rules-title" className="space-y-2">
        <h2 id="review-rules-title" className="text-lg font-semibold text-slate-900">
          Coverage review
        </h2>
        <p className="text-sm text-slate-700">
          The limits each pull&apos;s coverage review holds a household to (bodily injury, property damage, personal
          liability, deductibles, coinsurance) and which checks it runs.{" "}
          <Link href="/admin/review" className={cn(LINK_CLASS, "font-medium")}>
            Set the coverage review rules
          </Link>
        </p>
      </Card>
      <Card aria-labelledby="policy-check-rules-title" className="space-y-2">
        <h2 id="policy-check-rules-title" className="text-lg font-semibold text-slate-900">
          The service&apos;s policy check
        </h2>
        <p className="text-sm text-slate-700">
          The rules the service checks every linked account against (active policy, collision and comprehensive,
          deductibles, liability minimums, lien holders, replacement cost), kept at the service.{" "}
          <Link href="/admin/policy-check" className={cn(LINK_CLASS, "font-medium")}>
            Set the policy check rules
          </Link>
        </p>
      </Card>
    </div>
  );
}
