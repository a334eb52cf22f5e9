import type { SandboxPull } from "../data/pulls";
import type { PdfPage } from "./pdf";

// What a download link points at, found in a pull, and the page the sandbox renders for it:
// the document's title and the account holder's name, so a viewer shows the right file.

type Row = Record<string, unknown>;

const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [];
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

export type DocumentFile = {
  documentId: string;
  title: string;
  type: string | null;
  policyId: string | null;
  dateAdded: string | null;
};
export type AnswerFile = { fileId: string; name: string; mimeType: string; label: string };

export function findDocument(pull: SandboxPull, documentId: string): DocumentFile | null {
  const row = rows(pull.documents).find((d) => d.document_id === documentId);
  if (!row) return null;
  return {
    documentId,
    title: str(row.title) ?? "Document",
    type: str(row.document_type),
    policyId: str(row.policy_id),
    dateAdded: str(row.date_added),
  };
}

/** `answerId` is the answer field's id (consumer_flow_section_field_id), as in the service's download URLs. */
export function findAnswerFile(pull: SandboxPull, answerId: string, fileId: string): AnswerFile | null {
  for (const section of rows(pull.answers)) {
    const field = rows(section.fields).find(
      (f) => f.consumer_flow_section_field_id === answerId && f.type === "FILE_UPLOAD",
    );
    const file = field ? rows(field.value).find((v) => v.file_id === fileId) : undefined;
    if (field && file)
      return {
        fileId,
        name: str(file.name) ?? "upload",
        mimeType: str(file.type) ?? "application/octet-stream",
        label: str(field.label) ?? "",
      };
  }
  return null;
}

function holderName(pull: SandboxPull): string {
  const name = [pull.first_name, pull.middle_name, pull.last_name]
    .map(str)
    .filter((p): p is string => Boolean(p))
    .join(" ");
  return name || "Unknown account holder";
}

export function documentPage(pull: SandboxPull, doc: DocumentFile): PdfPage {
  const policy = rows(pull.policies).find((p) => p.policy_id === doc.policyId);
  const lines = [
    `Account holder: ${holderName(pull)}`,
    `Carrier: ${str(policy?.carrier_friendly_name) ?? str(pull.insurance_provider_friendly_name) ?? "unknown"}`,
  ];
  if (policy)
    lines.push(`Policy: ${str(policy.carrier_policy_number) ?? "-"} (${str(policy.policy_type) ?? "unknown type"})`);
  if (policy)
    lines.push(
      `Term: ${(str(policy.effective_date) ?? "?").slice(0, 10)} to ${(str(policy.expiry_date) ?? "?").slice(0, 10)}`,
    );
  lines.push(
    `Document type: ${doc.type ?? "unspecified"}`,
    `Date added: ${(doc.dateAdded ?? "unknown").slice(0, 10)}`,
    `Document id: ${doc.documentId}`,
    "",
    "Sandbox document: generated test data, not a real insurance record.",
  );
  return { title: doc.title, lines };
}

export function answerFilePage(pull: SandboxPull, file: AnswerFile): PdfPage {
  return {
    title: file.name,
    lines: [
      `Uploaded by: ${holderName(pull)}`,
      `Question: ${file.label}`,
      `File id: ${file.fileId}`,
      "",
      "Sandbox upload: generated test data.",
    ],
  };
}
