import type { Metadata } from "next";
import { ConsumerPullsTable } from "@/components/privacy/consumer-pulls-table";
import { OpenRequestForm } from "@/components/privacy/open-request-form";
import { PrivacyRequestsTable } from "@/components/privacy/requests-table";
import { Card } from "@/components/ui/card";
import { FilterField, FilterForm } from "@/components/ui/filter-form";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { loadPrivacyPage } from "@/lib/loaders/privacy";
import { openPrivacyRequestAction } from "./actions";

export const metadata: Metadata = { title: "Consumer requests" };
export const dynamic = "force-dynamic";

// GET /admin/privacy — the consumer request desk: find a consumer by what they give, open their
// request (a copy of their data, or its erasure) with its 45-day clock, and follow the requests.
export default async function PrivacyDeskPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission("privacy:manage");
  const page = await loadPrivacyPage(await getDb(), user, await searchParams);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Consumer requests"
        description="A consumer may ask for a copy of everything the agency holds on them, or for its erasure; the law gives 45 days to answer. Find them by what they give you: every search is on the audit trail, without what was typed."
      />
      <Card as="div">
        <FilterForm label="Find a consumer" clearHref="/admin/privacy" submitLabel="Find" submitVariant="primary">
          <FilterField label="Email">
            <Input name="email" type="email" defaultValue={page.values.email} autoComplete="off" className="w-64" />
          </FilterField>
          <FilterField label="Phone">
            <Input name="phone" type="tel" defaultValue={page.values.phone} autoComplete="off" className="w-40" />
          </FilterField>
          <FilterField label="Name">
            <Input name="name" defaultValue={page.values.name} autoComplete="off" className="w-48" />
          </FilterField>
          <FilterField label="Date of birth">
            <Input name="dob" type="date" defaultValue={page.values.dob} className="w-40" />
          </FilterField>
        </FilterForm>
        {page.searchError ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {page.searchError}
          </p>
        ) : null}
      </Card>
      {page.results ? (
        <Card className="space-y-4" aria-label="The consumer found">
          <ConsumerPullsTable pulls={page.results} label="Their linked accounts" />
          {page.results.length > 0 ? (
            <OpenRequestForm
              action={openPrivacyRequestAction}
              pullIds={page.results.map((p) => p.pullId)}
              today={page.today}
            />
          ) : null}
        </Card>
      ) : null}
      <section className="space-y-2">
        <h2 className="text-lg font-semibold text-slate-900">Requests</h2>
        <PrivacyRequestsTable requests={page.requests} />
        <p className="text-xs text-slate-600">
          {page.erased.subjects} erased identifiers are kept as keyed hashes; {page.erased.refusals} deliveries or pulls
          naming them have been refused since.
        </p>
      </section>
    </div>
  );
}
