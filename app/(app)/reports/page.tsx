import type { Metadata } from "next";
import { ReportsView } from "@/components/reports/reports-view";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { loadReportsPage } from "@/lib/loaders/reports";

export const metadata: Metadata = { title: "Reports" };

export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [, params, db] = await Promise.all([requirePermission("reports:view"), searchParams, getDb()]);
  return <ReportsView page={await loadReportsPage(db, params, env().service)} />;
}
