// GET /api/pulls/[pullId]/exports/ezlynx-auto — the pull as EZLynx's applicant XML (EZAUTO, V200),
// the file EZLynx's Import Applicant reads, for a viewer allowed to export the pull; each one
// made is audited with its recipient and purpose. 404 when the pull has no private passenger auto.
import { notFoundJson, withUser } from "@/lib/auth/route-guard";
import { exportParams, makeEzlynxExport, xmlDownload } from "@/lib/handoff/export";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "handoffs:export",
  async ({ user, params, db }) => {
    const made = await makeEzlynxExport(db, user, params.pullId, "ezlynx-auto");
    return made ? xmlDownload(made) : notFoundJson();
  },
  { params: exportParams },
);
