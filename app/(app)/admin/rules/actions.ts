"use server";

import { revalidatePath } from "next/cache";
import { formAction, noInput, submittedForm, submittedText } from "@/lib/auth/action-guard";
import { sendDigestsNow } from "@/lib/alerts/digest-now";
import { runRefreshTimingNow } from "@/lib/monitoring/refresh-timing-schedule";
import { saveAgencyRules, THRESHOLD_LINES } from "@/lib/rules/agency-rules";
import { toFormState } from "@/lib/core/form-state";

// The agency's rules and the digest's Send now. Thresholds come as one field per line; an empty
// threshold means "use the default", an empty budget "no budget", an empty speed-to-lead wait
// "the rule is off". saveAgencyRules validates the values and audits the change.

const number = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : Number(text));
const numberOrNull = (text: string | undefined) => number(text) ?? null;

const rulesInput = submittedForm().transform((form) => {
  const jumpThresholds: Record<string, number | undefined> = {
    default: number(submittedText(form, "threshold.default")),
  };
  for (const line of THRESHOLD_LINES) {
    const value = number(submittedText(form, `threshold.${line}`));
    if (value !== undefined) jumpThresholds[line] = value;
  }
  return {
    jumpThresholds,
    digestHour: number(submittedText(form, "digestHour")),
    queueAlertsTo: submittedText(form, "queueAlertsTo"),
    leadTimeDays: number(submittedText(form, "leadTimeDays")),
    refreshBudgetPerMonth: numberOrNull(submittedText(form, "refreshBudgetPerMonth")),
    speedToLeadMinutes: numberOrNull(submittedText(form, "speedToLeadMinutes")),
    speedToLeadAction: submittedText(form, "speedToLeadAction"),
  };
});

export const saveAgencyRulesAction = formAction("rules:manage", rulesInput, async ({ user, input, db }) => {
  const result = await saveAgencyRules(db, user, input);
  if (result.ok) {
    // A new lead time moves every monitored account's next refresh: at once, not within the hour.
    void runRefreshTimingNow();
    revalidatePath("/admin/rules");
  }
  return toFormState(
    result,
    "Saved. Refreshes, alerts, digests and the speed-to-lead rule follow these rules from now on.",
  );
});

export const sendDigestsNowAction = formAction("rules:manage", noInput, async ({ user, db }) => {
  const result = await sendDigestsNow(db, user);
  revalidatePath("/admin/rules");
  return toFormState(
    result,
    result.ok
      ? result.mails === 0
        ? "Nothing to send: every open alert has been mailed already."
        : `Sent ${result.mails === 1 ? "1 digest" : `${result.mails} digests`} (${result.alerts === 1 ? "1 alert" : `${result.alerts} alerts`}).`
      : "",
  );
});
