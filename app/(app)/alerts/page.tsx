import type { Metadata } from "next";
import { AlertInbox } from "@/components/alerts/alert-inbox";
import { loadAlertInboxPage } from "@/lib/loaders/alerts-inbox";
import { requirePermission } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { moveAlertAction } from "./actions";

export const metadata: Metadata = { title: "Alerts" };

// GET /alerts — what refreshes found on the user's accounts and the queue's.
export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params, db] = await Promise.all([requirePermission("alerts:view"), searchParams, getDb()]);
  const page = await loadAlertInboxPage(db, user, params);
  return <AlertInbox page={page} move={moveAlertAction} />;
}
