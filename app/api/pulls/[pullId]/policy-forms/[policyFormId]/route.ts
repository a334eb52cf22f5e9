// GET /api/pulls/[pullId]/policy-forms/[policyFormId] — a form or endorsement one of the pull's
// policies lists, fetched from the service for a viewer allowed to download the pull's documents.
import { withUser } from "@/lib/auth/route-guard";
import { env } from "@/lib/env";
import { notFoundResponse } from "@/lib/pulls/document-relay";
import { downloadPolicyForm, policyFormParams } from "@/lib/pulls/document-downloads";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "pulls:view",
  ({ user, params, db }) => downloadPolicyForm(db, env().service, user, params),
  { params: policyFormParams, refused: notFoundResponse },
);
