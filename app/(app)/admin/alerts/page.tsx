import type { Metadata } from "next";
import { AlertRulesForm, SendDigestsNowForm } from "@/components/admin/alert-rules-form";
import { MailOutbox } from "@/components/admin/mail-outbox";
import { loadAlertRulesPage } from "@/lib/alerts/rules-page";
import { THRESHOLD_LINES } from "@/lib/alerts/rules";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { saveAlertRulesAction, sendDigestsNowAction } from "./actions";

export const metadata: Metadata = { title: "Alert rules and digest" };

// GET /admin/alerts — the alert rules, the daily digest, and (without SMTP) the outbox.
export default async function AlertRulesPage() {
  await requirePermission("alerts:manage");
  const page = await loadAlertRulesPage(await getDb(), env());
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Alert rules and digest</h1>
        <p className="text-sm text-slate-600">
          Refreshes of monitored accounts raise alerts for the account&apos;s agent (or the queue): a renewal premium up
          past the threshold, a cancellation, a lapse, a coverage cut. Changes are in the audit trail.
        </p>
      </div>
      <AlertRulesForm
        thresholds={page.rules.jumpThresholds}
        lines={THRESHOLD_LINES}
        digestHour={page.rules.digestHour}
        queueAlertsTo={page.rules.queueAlertsTo}
        action={saveAlertRulesAction}
      />
      <section aria-labelledby="digest-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
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
      </section>
      {page.smtpHost ? null : <MailOutbox entries={page.outbox} />}
    </div>
  );
}
