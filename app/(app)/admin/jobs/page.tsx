import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JobsList } from "@/components/jobs/jobs-list";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { loadJobsPage } from "@/lib/loaders/jobs";
import { runJobNowAction } from "./actions";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  const user = await requirePermission("jobs:manage");
  const page = await loadJobsPage(await getDb(), user);
  if (!page.ok) notFound();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Jobs"
        description="Coverdesk's scheduled work: when each job runs, and its last runs. Each run happens once, whichever instance takes it; a failed run is tried again."
      />
      <JobsList jobs={page.jobs} runNow={runJobNowAction} />
    </div>
  );
}
