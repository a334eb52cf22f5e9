// Where the browser fetches a document, an uploaded file or a policy form: our own routes, which
// check the viewer's permission and relay the file from the service.

export function documentHref(pullId: string, documentId: string): string {
  return `/api/pulls/${encodeURIComponent(pullId)}/documents/${encodeURIComponent(documentId)}`;
}

export function answerFileHref(pullId: string, answerId: string, fileId: string): string {
  return `/api/pulls/${encodeURIComponent(pullId)}/answers/${encodeURIComponent(answerId)}/files/${encodeURIComponent(fileId)}`;
}

export function policyFormHref(pullId: string, policyFormId: string): string {
  return `/api/pulls/${encodeURIComponent(pullId)}/policy-forms/${encodeURIComponent(policyFormId)}`;
}
