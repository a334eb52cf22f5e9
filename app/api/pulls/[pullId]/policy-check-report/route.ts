// GET /api/pulls/[pullId]/policy-check-report — the service's PDF report of the pull's policy
// check, relayed for a viewer allowed to download the pull's documents. Where the agency's plan
// lacks the policy check, or the service fails, a plain message says so.
import { z } from "zod";
import { notFoundJson, withUser } from "@/lib/auth/route-guard";
import { env } from "@/lib/env";
import { policyCheckReport } from "@/lib/policy-check/runs";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "documents:download",
  async ({ user, params, db }) => {
    const report = await policyCheckReport(db, env().service, user, params.pullId);
    if (report.ok)
      return new Response(new Uint8Array(report.bytes), {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": `inline; filename="policy-check-${params.pullId}.pdf"`,
          "content-length": String(report.bytes.byteLength),
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    if (report.reason === "not-found") return notFoundJson();
    return new Response(report.message, {
      status: report.reason === "not-in-plan" ? 403 : 502,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  },
  { params: z.object({ pullId: z.uuid() }) },
);
