"use server";

import { revalidatePath } from "next/cache";
import { formAction, noInput } from "@/lib/auth/action-guard";
import { sendDigestsNow } from "@/lib/alerts/digest-now";
import { runRefreshTimingNow } from "@/lib/monitoring/refresh-timing-schedule";
import { agencyRulesSchema, saveAgencyRules } from "@/lib/rules/agency-rules";
import { toFormState } from "@/lib/core/form-state";

// The agency's rules and the digest's Send now. The form is agencyRulesSchema's: one input per
// field, a threshold per line (`jumpThresholds.AUTO`); saveAgencyRules checks it again and audits
// the change.

export const saveAgencyRulesAction = formAction("rules:manage", agencyRulesSchema, async ({ user, input, db }) => {
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
