import type { Metadata } from "next";
import { ReportsView } from "@/components/reports/reports-view";
import { withReadDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { loadReportsPage } from "@/lib/loaders/reports";

export const metadata: Metadata = { title: "Reports" };

export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params] = await Promise.all([requirePermission("reports:view"), searchParams]);
  // Read from a replica when one has replayed this user's last write (lib/replicas/).
  return <ReportsView page={await withReadDb((db) => loadReportsPage(db, params, env().service, user))} />;
}
