import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Benchmark floor" };
export const dynamic = "force-dynamic";

// GET /admin/bench-floor — internal: a signed-in page that reads nothing of its own, only the
// session and the layout around it. `npm run bench` measures it in every run beside the other
// pages: its time is what any page costs before its own work, the floor each page's own time is
// held to (docs/performance.md). Admins only, like the jobs page it sits beside.
export default async function BenchFloorPage() {
  await requirePermission("jobs:manage");
  return (
    <PageHeader
      title="Benchmark floor"
      description="This page reads nothing but your session and the header's figures. The benchmark measures it beside every other page, as the least a page of Coverdesk can cost."
    />
  );
}
