import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import Link from "next/link";
import { ReviewRulesForm } from "@/components/admin/review-rules-form";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { loadReviewRulesPage } from "@/lib/loaders/review-rules";
import { saveReviewRulesAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Coverage review rules" };

// GET /admin/review — the floors, ceilings and checks of the coverage review every pull page runs.
export default async function ReviewRulesPage() {
  await requirePermission("rules:manage");
  const page = await loadReviewRulesPage(await getDb());
  return (
    <div className="space-y-6">
      <Link href="/admin/rules" className={cn(LINK_CLASS, "text-sm")}>
        ← Agency rules
      </Link>
      <PageHeader
        title="Coverage review rules"
        description={
          <>
            What each pull&apos;s coverage review compares the household&apos;s cover with, and which checks it runs.
            Policies count as expiring soon within the renewal lead time ({page.leadTimeDays} days). Every change is in
            the audit trail.
          </>
        }
      />
      <ReviewRulesForm values={page.values} checks={page.checks} action={saveReviewRulesAction} />
    </div>
  );
}
