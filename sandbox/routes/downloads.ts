import type { SandboxContext, Routes } from "../context";
import { answerFilePage, documentPage, findAnswerFile, findDocument } from "../documents/files";
import { renderPdf, type PdfPage } from "../documents/pdf";
import { getPolicyForm, policyFormPage } from "../documents/policy-forms";
import {
  checkFileLink,
  filePath,
  newSigningSecret,
  parseFilePath,
  signFileUrl,
  LINK_TTL_SECONDS,
  type FileRef,
} from "../documents/signed-urls";
import { fail, send } from "../http";

// Downloads as the service does them: the team route answers 302 with a short-lived signed
// link (in Location and as {url}) on the storage server (../storage-server.ts), another
// address than the API's; the link needs no credentials and returns the file. Links expire on
// the sandbox clock, so the control API can age them.

/** One signing secret per running sandbox: links die with it, as short-lived links should. */
const secrets = new WeakMap<SandboxContext, Buffer>();
function secretOf(ctx: SandboxContext): Buffer {
  let secret = secrets.get(ctx);
  if (!secret) {
    secret = newSigningSecret();
    secrets.set(ctx, secret);
  }
  return secret;
}

const nowSeconds = (ctx: SandboxContext) => Math.floor(ctx.clock.now().getTime() / 1000);

/** A signed link to `ref` valid for `ttlSeconds` from the sandbox clock (tests pass ≤ 0 for an expired one). */
export function signedFileUrl(ctx: SandboxContext, ref: FileRef, ttlSeconds: number = LINK_TTL_SECONDS): string {
  return signFileUrl(secretOf(ctx), ctx.storageOrigin(), filePath(ref), nowSeconds(ctx) + ttlSeconds);
}

/** The page behind a reference, or null when the pull, document or upload is unknown. */
function locate(ctx: SandboxContext, ref: FileRef): { filename: string; page: PdfPage } | null {
  if (ref.kind === "form") {
    const form = getPolicyForm(ctx.state.pulls.values(), ref.formId);
    return form ? { filename: `${ref.formId}.pdf`, page: policyFormPage(form) } : null;
  }
  const pull = ctx.state.pulls.get(ref.pullId);
  if (!pull) return null;
  if (ref.kind === "document") {
    const doc = findDocument(pull, ref.documentId);
    return doc ? { filename: `${ref.documentId}.pdf`, page: documentPage(pull, doc) } : null;
  }
  const file = findAnswerFile(pull, ref.answerId, ref.fileId);
  return file ? { filename: `${ref.fileId}.pdf`, page: answerFilePage(pull, file) } : null;
}

function redirect(ctx: SandboxContext, res: Parameters<typeof send>[0], ref: FileRef): true {
  if (!locate(ctx, ref)) return fail(res, 404, "NOT_FOUND");
  const url = signedFileUrl(ctx, ref);
  return send(res, 302, { url }, { location: url, "cache-control": "no-store" });
}

/** Team routes: GET …/pulls/{pullId}/documents/{documentId} and …/answers/{answerId}/files/{fileId}. */
export const downloadRoutes: Routes = async (ctx, { res, method, path }) => {
  const document = /^\/pulls\/([^/]+)\/documents\/([^/]+)$/.exec(path);
  const answer = /^\/pulls\/([^/]+)\/answers\/([^/]+)\/files\/([^/]+)$/.exec(path);
  if (!document && !answer) return false;
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  if (document)
    return redirect(ctx, res, { kind: "document", pullId: document[1] ?? "", documentId: document[2] ?? "" });
  return redirect(ctx, res, {
    kind: "answer",
    pullId: answer?.[1] ?? "",
    answerId: answer?.[2] ?? "",
    fileId: answer?.[3] ?? "",
  });
};

/** The signed links themselves, served by the storage server for paths under FILES_PREFIX. */
export const fileRoutes: Routes = async (ctx, { res, method, path, url }) => {
  if (method !== "GET" && method !== "HEAD") return fail(res, 405, "METHOD_NOT_ALLOWED");
  const ref = parseFilePath(path);
  if (!ref) return fail(res, 404, "NOT_FOUND");
  if (checkFileLink(secretOf(ctx), path, url.searchParams, nowSeconds(ctx)) !== "ok")
    return fail(res, 403, "FORBIDDEN");
  const file = locate(ctx, ref);
  if (!file) return fail(res, 404, "NOT_FOUND");
  // Dated the seeding day, so the same document is the same bytes on every download.
  const bytes = renderPdf(file.page, ctx.options.now ?? new Date(0));
  res.writeHead(200, {
    "content-type": "application/pdf",
    "content-length": String(bytes.length),
    "content-disposition": `inline; filename="${file.filename}"`,
    "cache-control": "private, no-store",
  });
  res.end(method === "HEAD" ? undefined : bytes);
  return true;
};
