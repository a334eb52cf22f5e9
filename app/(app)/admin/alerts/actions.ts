"use server";

import { revalidatePath } from "next/cache";
import { formAction, noInput, submittedForm, submittedText } from "@/lib/auth/action-guard";
import { sendDigestsNow } from "@/lib/alerts/digest-now";
import { saveAlertRules, THRESHOLD_LINES } from "@/lib/alerts/rules";
import { toFormState } from "@/lib/workflow/form-state";

// The alert rules and the digest's Send now. Thresholds come as one field per line; an empty
// field means "use the default". saveAlertRules validates the values and audits the change.

const number = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : Number(text));

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
  };
});

export const saveAlertRulesAction = formAction("alerts:manage", rulesInput, async ({ user, input, db }) => {
  const result = await saveAlertRules(db, user, input);
  if (result.ok) revalidatePath("/admin/alerts");
  return toFormState(result, "Saved. The next refresh and the next digest follow these rules.");
});

export const sendDigestsNowAction = formAction("alerts:manage", noInput, async ({ user, db }) => {
  const result = await sendDigestsNow(db, user);
  revalidatePath("/admin/alerts");
  return toFormState(
    result,
    result.ok
      ? result.mails === 0
        ? "Nothing to send: every open alert has been mailed already."
        : `Sent ${result.mails === 1 ? "1 digest" : `${result.mails} digests`} (${result.alerts === 1 ? "1 alert" : `${result.alerts} alerts`}).`
      : "",
  );
});
