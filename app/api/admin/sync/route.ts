// GET /api/admin/sync — the latest reconciliation run, polled by the Events page while it runs.
import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { latestSyncRun } from "@/lib/ingest/sync";
import { toSyncRunView } from "@/lib/ingest/sync-view";

export const dynamic = "force-dynamic";

export async function GET() {
  if (!(await userAllowedTo("events:view"))) return NextResponse.json({ error: "NOT_FOUND" }, { status: 404 });
  const run = await latestSyncRun(await getDb());
  return NextResponse.json({ run: run ? toSyncRunView(run) : null }, { headers: { "cache-control": "no-store" } });
}
