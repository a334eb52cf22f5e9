import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConsumerPullsTable } from "@/components/privacy/consumer-pulls-table";
import { EraseConsumerForm } from "@/components/privacy/erase-consumer-form";
import { RequestClock } from "@/components/privacy/request-clock";
import { ServiceToldForm } from "@/components/privacy/service-told-form";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";
import { FieldList } from "@/components/ui/field-list";
import { LINK_CLASS } from "@/components/ui/link-class";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { formatCalendarDate, formatInstant, labelFromKey } from "@/lib/format";
import { loadPrivacyRequestPage } from "@/lib/loaders/privacy";
import { erasePrivacyRequestAction, markServiceToldAction } from "../actions";

export const metadata: Metadata = { title: "Consumer request" };
export const dynamic = "force-dynamic";

// GET /admin/privacy/[requestId] — one consumer request: its clock, the consumer's pulls, the
// exports (JSON and PDF) for them, the erasure, and after it the steps to have the service delete
// its own copy.
export default async function PrivacyRequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  await requirePermission("privacy:manage");
  const page = await loadPrivacyRequestPage(await getDb(), (await params).requestId);
  if (!page) notFound();
  const { request, pulls, serviceSteps } = page;
  const exportHref = (format: "json" | "pdf") => `/api/privacy/requests/${request.id}/export?format=${format}`;
  return (
    <div className="space-y-6">
      <Link href="/admin/privacy" className={cn(LINK_CLASS, "text-sm")}>
        ← Consumer requests
      </Link>
      <PageHeader
        title={request.kind === "ERASURE" ? "Erasure request" : "Access request"}
        description={request.reference ? `Reference ${request.reference}` : undefined}
      >
        <RequestClock daysLeft={request.daysLeft} />
      </PageHeader>
      <Card>
        <FieldList
          fields={[
            { label: "Received", value: formatCalendarDate(request.receivedOn) },
            { label: "Due", value: formatCalendarDate(request.dueOn) },
            { label: "Answered", value: request.completedAt ? formatInstant(request.completedAt) : "Not yet" },
          ]}
        />
      </Card>
      {pulls.length > 0 ? (
        <Card className="space-y-4">
          <ConsumerPullsTable pulls={pulls} label="The consumer's linked accounts" />
          <div className="flex flex-wrap items-start gap-3">
            <a href={exportHref("json")} className={buttonClass({ variant: "secondary" })} data-testid="export-json">
              Export everything (JSON)
            </a>
            <a href={exportHref("pdf")} className={buttonClass({ variant: "secondary" })} data-testid="export-pdf">
              Export a readable copy (PDF)
            </a>
            {request.kind === "ERASURE" && request.status === "OPEN" ? (
              <EraseConsumerForm action={erasePrivacyRequestAction} requestId={request.id} pulls={pulls.length} />
            ) : null}
          </div>
          <p className="text-xs text-slate-600">
            An export is for the consumer: it is recorded on the audit trail as leaving Coverdesk, to them.
          </p>
        </Card>
      ) : null}
      {request.erasedCounts ? (
        <Card className="space-y-2" data-testid="erased-counts">
          <h2 className="text-lg font-semibold text-slate-900">What was erased</h2>
          <FieldList
            columns={4}
            fields={Object.entries(request.erasedCounts)
              .filter(([, n]) => n > 0)
              .map(([kind, n]) => ({ label: labelFromKey(kind), value: String(n) }))}
          />
        </Card>
      ) : null}
      {serviceSteps ? (
        <Card className="space-y-3" data-testid="service-steps">
          <h2 className="text-lg font-semibold text-slate-900">Now ask the service to delete its copy</h2>
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-800">
            {serviceSteps.map((step) => (
              <li key={step} className="break-words">
                {step}
              </li>
            ))}
          </ol>
          <ServiceToldForm action={markServiceToldAction} requestId={request.id} />
        </Card>
      ) : request.serviceToldAt ? (
        <p className="text-sm text-slate-700">The service was told on {formatInstant(request.serviceToldAt)}.</p>
      ) : null}
    </div>
  );
}
