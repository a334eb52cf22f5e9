import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { PolicyCheckRulesForm } from "@/components/admin/policy-check-rules-form";
import { requirePermission } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { loadPolicyCheckRulesPage } from "@/lib/loaders/policy-check-rules";
import { POLICY_CHECK_FIELDS } from "@/lib/policy-check/rules";
import { savePolicyCheckRulesAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Policy check rules" };
export const dynamic = "force-dynamic";

// GET /admin/policy-check — the team's rules for the service's own policy check, read from and
// saved to the service.
export default async function PolicyCheckRulesPage() {
  await requirePermission("rules:manage");
  const page = await loadPolicyCheckRulesPage(env().service);
  return (
    <div className="space-y-6">
      <Link href="/admin/rules" className={cn(LINK_CLASS, "text-sm")}>
        ← Agency rules
      </Link>
      <PageHeader
        title="Policy check rules"
        description={
          <>
            The service checks every linked account against these rules and puts the results on the pull; an agent can
            run the check again from the pull&apos;s page. They are kept at the service, not in Coverdesk. Every change
            is in the audit trail.
          </>
        }
      />
      {page.ok ? (
        <PolicyCheckRulesForm fields={POLICY_CHECK_FIELDS} values={page.form} action={savePolicyCheckRulesAction} />
      ) : (
        <p
          role={page.notInPlan ? "status" : "alert"}
          className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-800"
          data-testid="policy-check-unavailable"
        >
          {page.message}
        </p>
      )}
    </div>
  );
}
