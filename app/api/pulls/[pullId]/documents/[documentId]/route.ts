// GET /api/pulls/[pullId]/documents/[documentId] — a pull's document, fetched from the service
// with the server's credentials for a viewer allowed to see the pull (PDFs open inline).
import { withUser } from "@/lib/auth/route-guard";
import { env } from "@/lib/env";
import { notFoundResponse } from "@/lib/pulls/document-relay";
import { documentParams, downloadPullDocument } from "@/lib/pulls/document-downloads";

export const dynamic = "force-dynamic";

export const GET = withUser(
  "pulls:view",
  ({ user, params, db }) => downloadPullDocument(db, env().service, user, params),
  { params: documentParams, refused: notFoundResponse },
);
