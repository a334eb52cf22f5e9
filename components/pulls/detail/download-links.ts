// Where the browser fetches a document or an uploaded file: our own routes, which check the
// viewer's permission and fetch from the service with the server's credentials.

export function documentHref(pullId: string, documentId: string): string {
  return `/api/pulls/${encodeURIComponent(pullId)}/documents/${encodeURIComponent(documentId)}`;
}

export function answerFileHref(pullId: string, answerId: string, fileId: string): string {
  return `/api/pulls/${encodeURIComponent(pullId)}/answers/${encodeURIComponent(answerId)}/files/${encodeURIComponent(fileId)}`;
}
