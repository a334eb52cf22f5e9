import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { PayloadProblems } from "@/components/pulls/detail/payload-problems";
import { PolicyCard } from "@/components/pulls/detail/policy-card";
import { PullHeader } from "@/components/pulls/detail/pull-header";
import { EmptyNote, Section } from "@/components/ui/section";
import { getDb } from "@/db/client";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { getPullDetail } from "@/lib/pulls/queries";

export const metadata: Metadata = { title: "Linked account" };

export default async function PullDetailPage({ params }: { params: Promise<{ pullId: string }> }) {
  const user = await requirePermission("pulls:view");
  const pullId = z.uuid().safeParse((await params).pullId);
  if (!pullId.success) notFound();
  const detail = await getPullDetail(await getDb(), pullId.data);
  if (!detail) notFound();
  const { pull } = detail;

  return (
    <div className="space-y-6">
      <Link href="/pulls" className="text-sm text-brand-700 hover:underline">← All linked accounts</Link>
      <PullHeader pull={pull} />
      <Section title="Policies" id="policies">
        {pull.policies.length === 0 ? (
          <EmptyNote>{pull.no_policies ? "The account holds no policies." : "The service returned no policies for this account."}</EmptyNote>
        ) : (
          <div className="space-y-4">{pull.policies.map((p) => <PolicyCard key={p.policy_id} policy={p} />)}</div>
        )}
      </Section>
      {can(user, "pulls:view-problems") ? <PayloadProblems problems={detail.problems} /> : null}
    </div>
  );
}
