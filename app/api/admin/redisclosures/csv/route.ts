// GET /api/admin/redisclosures/csv — the DPPA redisclosure log as CSV (audited).
import { withUser } from "@/lib/auth/route-guard";
import { exportRedisclosuresCsv } from "@/lib/csv/audit-exports";
import { csvResponse } from "@/lib/csv/to-csv";

export const dynamic = "force-dynamic";

export const GET = withUser("incident:view", async ({ user, db }) =>
  csvResponse("coverdesk-redisclosures", await exportRedisclosuresCsv(db, user)),
);
