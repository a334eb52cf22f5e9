import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import type { SessionUser } from "@/lib/auth/session";
import type { ServiceConfig } from "@/lib/service/client";
import { getAnswerFileDownloadUrl, getDocumentDownloadUrl } from "@/lib/service/downloads-api";
import { getPolicyFormDownloadUrl } from "@/lib/service/policy-forms-api";
import type { AnswerSection, FileUpload, Policy } from "@/lib/service/schemas";
import { recordAudit } from "@/lib/workflow/audit";
import { findViewablePull } from "./access";
import { notFoundResponse, relayDownload } from "./document-relay";

// A pull's documents, the files its consumer uploaded and its policies' forms, for a viewer
// allowed to download from that pull: only what the stored pull lists (an id cannot reach
// another pull's files), on the audit trail, the signed link asked for with the server's
// credentials and its bytes relayed (./document-relay.ts).

export const documentParams = z.object({
  pullId: z.uuid(),
  documentId: z.string().min(1).max(200),
});

export const answerFileParams = z.object({
  pullId: z.uuid(),
  answerId: z.string().min(1).max(200),
  fileId: z.string().min(1).max(200),
});

export async function downloadPullDocument(
  db: Db,
  service: ServiceConfig,
  user: SessionUser,
  params: z.output<typeof documentParams>,
): Promise<Response> {
  const detail = await findViewablePull(db, user, params.pullId, "documents:download");
  const document = detail?.pull.documents.find((candidate) => candidate.document_id === params.documentId);
  if (!detail || !document) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", {
    pullId: detail.pull.pull_id,
    details: { documentId: document.document_id, title: document.title },
  });
  return relayDownload({
    signedUrl: () =>
      getDocumentDownloadUrl(service, {
        pullId: detail.pull.pull_id,
        documentId: document.document_id,
        downloadUrl: document.download_url,
      }),
    title: document.title,
    fallbackName: "document",
    label: `pull ${detail.pull.pull_id} document ${document.document_id}`,
  });
}

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

export async function downloadAnswerFile(
  db: Db,
  service: ServiceConfig,
  user: SessionUser,
  params: z.output<typeof answerFileParams>,
): Promise<Response> {
  const detail = await findViewablePull(db, user, params.pullId, "documents:download");
  const file = detail ? findUpload(detail.pull.answers, params.answerId, params.fileId) : null;
  if (!detail || !file) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", {
    pullId: detail.pull.pull_id,
    details: { fileId: file.file_id, title: file.name },
  });
  return relayDownload({
    signedUrl: () =>
      getAnswerFileDownloadUrl(service, {
        pullId: detail.pull.pull_id,
        answerId: params.answerId,
        fileId: file.file_id,
        downloadUrl: file.download_url,
      }),
    title: file.name,
    fallbackName: "upload",
    label: `pull ${detail.pull.pull_id} answer ${params.answerId} file ${file.file_id}`,
  });
}

export const policyFormParams = z.object({
  pullId: z.uuid(),
  policyFormId: z.string().min(1).max(100),
});

/** A form one of the stored pull's policies lists, by the service's policy_form_id. */
export function findPolicyForm(
  policies: Policy[],
  policyFormId: string,
): { policyFormId: string; name: string | null } | null {
  for (const policy of policies) {
    const form = policy.forms_and_endorsements.find((candidate) => candidate.policy_form_id === policyFormId);
    if (form) return { policyFormId, name: typeof form.form_name === "string" ? form.form_name : null };
  }
  return null;
}

export async function downloadPolicyForm(
  db: Db,
  service: ServiceConfig,
  user: SessionUser,
  params: z.output<typeof policyFormParams>,
): Promise<Response> {
  const detail = await findViewablePull(db, user, params.pullId, "documents:download");
  const form = detail ? findPolicyForm(detail.pull.policies, params.policyFormId) : null;
  if (!detail || !form) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", {
    pullId: detail.pull.pull_id,
    details: { policyFormId: form.policyFormId, title: form.name },
  });
  return relayDownload({
    signedUrl: () => getPolicyFormDownloadUrl(service, form.policyFormId),
    title: form.name,
    fallbackName: "policy-form",
    label: `pull ${detail.pull.pull_id} policy form ${form.policyFormId}`,
  });
}
