// GET /api/pulls/[pullId]/documents/[documentId] — a pull's document, fetched from the service
// with the server's credentials for a viewer allowed to see the pull (PDFs open inline).
import { z } from "zod";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { findViewablePull } from "@/lib/pulls/access";
import { recordAudit } from "@/lib/workflow/audit";
import { getDocumentDownloadUrl } from "@/lib/service/downloads-api";
import { notFoundResponse, relayDownload } from "../../../relay-download";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  pullId: z.uuid(),
  documentId: z.string().min(1).max(200),
});

export async function GET(_request: Request, context: { params: Promise<{ pullId: string; documentId: string }> }) {
  const params = paramsSchema.safeParse(await context.params);
  if (!params.success) return notFoundResponse();
  const user = await userAllowedTo("pulls:view");
  if (!user) return notFoundResponse();
  const db = await getDb();
  const detail = await findViewablePull(db, user, params.data.pullId, "documents:download");
  // Only a document the stored pull lists: the id cannot be used to reach other pulls' files.
  const document = detail?.pull.documents.find((candidate) => candidate.document_id === params.data.documentId);
  if (!detail || !document) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", { pullId: detail.pull.pull_id, details: { documentId: document.document_id, title: document.title } });
  return relayDownload({
    signedUrl: () => getDocumentDownloadUrl(env().service, detail.pull.pull_id, document.document_id),
    title: document.title,
    fallbackName: "document",
    label: `pull ${detail.pull.pull_id} document ${document.document_id}`,
  });
}
