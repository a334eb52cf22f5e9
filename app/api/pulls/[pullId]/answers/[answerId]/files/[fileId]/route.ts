// GET /api/pulls/[pullId]/answers/[answerId]/files/[fileId] — a file the consumer uploaded in
// the link flow, fetched from the service with the server's credentials for an allowed viewer.
import { withUser } from "@/lib/auth/route-guard";
import { env } from "@/lib/env";
import { notFoundResponse } from "@/lib/pulls/document-relay";
import { answerFileParams, downloadAnswerFile } from "@/lib/pulls/document-downloads";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "pulls:view",
  ({ user, params, db }) => downloadAnswerFile(db, env().service, user, params),
  { params: answerFileParams, refused: notFoundResponse },
);
