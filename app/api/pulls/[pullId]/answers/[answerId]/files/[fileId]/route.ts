// GET /api/pulls/[pullId]/answers/[answerId]/files/[fileId] — a file the consumer uploaded in
// the link flow, fetched from the service with the server's credentials for an allowed viewer.
import { z } from "zod";
import { getDb } from "@/lib/database";
import { userAllowedTo } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { findViewablePull } from "@/lib/pulls/access";
import { recordAudit } from "@/lib/workflow/audit";
import { getAnswerFileDownloadUrl } from "@/lib/service/downloads-api";
import type { AnswerSection, FileUpload } from "@/lib/service/schemas";
import { notFoundResponse, relayDownload } from "../../../../../relay-download";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  pullId: z.uuid(),
  answerId: z.string().min(1).max(200),
  fileId: z.string().min(1).max(200),
});

/** The upload as the stored pull lists it, under the answer field it belongs to. */
function findUpload(sections: AnswerSection[], answerId: string, fileId: string): FileUpload | null {
  for (const section of sections) {
    for (const field of section.fields) {
      if (field.consumer_flow_section_field_id !== answerId || !Array.isArray(field.value)) continue;
      const file = field.value.find((candidate) => candidate.file_id === fileId);
      if (file) return file;
    }
  }
  return null;
}

export async function GET(_request: Request, context: { params: Promise<{ pullId: string; answerId: string; fileId: string }> }) {
  const params = paramsSchema.safeParse(await context.params);
  if (!params.success) return notFoundResponse();
  const user = await userAllowedTo("pulls:view");
  if (!user) return notFoundResponse();
  const db = await getDb();
  const detail = await findViewablePull(db, user, params.data.pullId, "documents:download");
  const file = detail ? findUpload(detail.pull.answers, params.data.answerId, params.data.fileId) : null;
  if (!detail || !file) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", { pullId: detail.pull.pull_id, details: { fileId: file.file_id, title: file.name } });
  return relayDownload({
    signedUrl: () => getAnswerFileDownloadUrl(env().service, detail.pull.pull_id, params.data.answerId, file.file_id),
    title: file.name,
    fallbackName: "upload",
    label: `pull ${detail.pull.pull_id} answer ${params.data.answerId} file ${file.file_id}`,
  });
}
