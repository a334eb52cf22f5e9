import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import type { ServiceConfig } from "@/lib/service/client";
import { getAnswerFileDownloadUrl, getDocumentDownloadUrl } from "@/lib/service/downloads-api";
import { getPolicyFormDownloadUrl } from "@/lib/service/policy-forms-api";
import type { AnswerSection, FileUpload, Policy, Pull } from "@/lib/service/schemas";
import { recordAudit } from "@/lib/audit/audit-log";
import { getViewablePull } from "./access";
import { notFoundResponse, relayDownload, type RelayRequest } from "./document-relay";

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

/** What a download needs of a file the stored pull lists: its audit details and where to relay it from. */
type ListedFile = { details: Record<string, unknown>; relay: RelayRequest };

/**
 * The one path of every download: the pull as the user may see it, the file only if that pull
 * lists it (else 404, with no audit entry), the audit entry, then the relay.
 */
async function relayListedFile(
  db: Db,
  user: Actor,
  pullId: string,
  find: (pull: Pull) => ListedFile | null,
): Promise<Response> {
  const detail = await getViewablePull(db, user, pullId, "documents:download");
  const file = detail ? find(detail.pull) : null;
  if (!detail || !file) return notFoundResponse();
  await recordAudit(db, user, "DOCUMENT_DOWNLOADED", { pullId: detail.pull.pull_id, details: file.details });
  return relayDownload(file.relay);
}

export function downloadPullDocument(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  params: z.output<typeof documentParams>,
): Promise<Response> {
  return relayListedFile(db, user, params.pullId, (pull) => {
    const document = pull.documents.find((candidate) => candidate.document_id === params.documentId);
    if (!document) return null;
    return {
      details: { documentId: document.document_id, title: document.title },
      relay: {
        signedUrl: () =>
          getDocumentDownloadUrl(service, {
            pullId: pull.pull_id,
            documentId: document.document_id,
            downloadUrl: document.download_url,
          }),
        title: document.title,
        fallbackName: "document",
        label: `pull ${pull.pull_id} document ${document.document_id}`,
      },
    };
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

export function downloadAnswerFile(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  params: z.output<typeof answerFileParams>,
): Promise<Response> {
  return relayListedFile(db, user, params.pullId, (pull) => {
    const file = findUpload(pull.answers, params.answerId, params.fileId);
    if (!file) return null;
    return {
      details: { fileId: file.file_id, title: file.name },
      relay: {
        signedUrl: () =>
          getAnswerFileDownloadUrl(service, {
            pullId: pull.pull_id,
            answerId: params.answerId,
            fileId: file.file_id,
            downloadUrl: file.download_url,
          }),
        title: file.name,
        fallbackName: "upload",
        label: `pull ${pull.pull_id} answer ${params.answerId} file ${file.file_id}`,
      },
    };
  });
}

export const policyFormParams = z.object({
  pullId: z.uuid(),
  policyFormId: z.string().min(1).max(100),
});

/** A form one of the stored pull's policies lists, by the service's policy_form_id. */
export function getPolicyForm(
  policies: Policy[],
  policyFormId: string,
): { policyFormId: string; name: string | null } | null {
  for (const policy of policies) {
    const form = policy.forms_and_endorsements.find((candidate) => candidate.policy_form_id === policyFormId);
    if (form) return { policyFormId, name: typeof form.form_name === "string" ? form.form_name : null };
  }
  return null;
}

export function downloadPolicyForm(
  db: Db,
  service: ServiceConfig,
  user: Actor,
  params: z.output<typeof policyFormParams>,
): Promise<Response> {
  return relayListedFile(db, user, params.pullId, (pull) => {
    const form = getPolicyForm(pull.policies, params.policyFormId);
    if (!form) return null;
    return {
      details: { policyFormId: form.policyFormId, title: form.name },
      relay: {
        signedUrl: () => getPolicyFormDownloadUrl(service, form.policyFormId),
        title: form.name,
        fallbackName: "policy-form",
        label: `pull ${pull.pull_id} policy form ${form.policyFormId}`,
      },
    };
  });
}
