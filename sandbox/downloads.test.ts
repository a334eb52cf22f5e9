import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPull } from "./data/pulls";
import { pdfString, renderPdf } from "./documents/pdf";
import { signedFileUrl } from "./routes/downloads";
import { startSandbox, type Sandbox } from "./server";

// Document and uploaded-file downloads over real HTTP: 302 to a signed link on the storage
// server (another address than the API's, as the real service's storage host is), the link
// serves a real PDF without credentials, and a tampered or expired link is refused.

const TEAM = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
const NOW = new Date("2026-06-15T00:00:00Z");
const auth = `Basic ${Buffer.from("id:secret").toString("base64")}`;
const options = {
  port: 0,
  clientId: "id",
  clientSecret: "secret",
  teamId: TEAM,
  webhookUrl: null,
  webhookSecret: null,
  seed: 42,
  now: NOW,
  speed: 0.0001,
  deliverOnStart: false,
};
let sandbox: Sandbox;

type Doc = { document_id: string; title: string; download_url: string };
type FileUpload = { file_id: string; download_url: string };
type Field = { consumer_flow_section_field_id: string; type: string; value: unknown };

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${sandbox.baseUrl}${path}`, {
    redirect: "manual",
    ...init,
    headers: { authorization: auth, ...init.headers },
  });
const pulls = () => [...sandbox.state.pulls.values()];
const docsOf = (pull: SandboxPull) => pull.documents as Doc[];
const uploadsOf = (pull: SandboxPull) =>
  (pull.answers as Array<{ fields: Field[] }>).flatMap((s) =>
    s.fields
      .filter((f) => f.type === "FILE_UPLOAD")
      .flatMap((f) => (f.value as FileUpload[]).map((file) => ({ field: f, file }))),
  );

/** Every xref entry must point at the byte where its object starts, and startxref at the table. */
function expectValidPdf(bytes: Buffer): string {
  const text = bytes.toString("latin1");
  expect(text.startsWith("%PDF-")).toBe(true);
  expect(text.endsWith("%%EOF")).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 4)).toBe("xref");
  const [, count] = /^xref\n0 (\d+)\n/.exec(text.slice(startxref)) ?? [];
  const entries = text
    .slice(startxref)
    .split("\n")
    .slice(2, 2 + Number(count));
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n\r$/);
    expect(text.slice(Number(entry.slice(0, 10))).startsWith(`${i + 1} 0 obj\n`)).toBe(true);
  });
  const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)?.[1]);
  const streamAt = text.indexOf("stream\n") + "stream\n".length;
  expect(text.slice(streamAt + length, streamAt + length + 10)).toBe("\nendstream");
  return text;
}

beforeAll(async () => {
  sandbox = await startSandbox(options);
});
afterAll(async () => {
  await sandbox?.close();
});

describe("PDF writer", () => {
  it("escapes PDF string syntax so no text can end the string early", () => {
    expect(pdfString(`a(b)c\\d`)).toBe("(a\\(b\\)c\\\\d)");
    expect(pdfString("O'Brien “quoted” café 日本")).toBe("(O'Brien \\223quoted\\224 caf\\351 \\077\\077)");
    expect(pdfString("line\nbreak")).toBe("(line break)");
  });

  it("writes a structurally valid file for hostile titles", () => {
    const text = expectValidPdf(
      renderPdf({
        title: `Endorsement "A", <b>bold</b>, O'Brien's copy) Tj ET (x`,
        lines: ["<script>alert('x')</script>"],
      }),
    );
    expect(text).toContain("O'Brien's copy\\) Tj ET \\(x");
    expect(text).not.toMatch(/[^\\]\) Tj ET \(/);
  });
});

describe("document and answer-file downloads", () => {
  it("answers 302 with a signed link that serves the document as a PDF without credentials", async () => {
    const pull = pulls().find((p) => docsOf(p).length > 0 && p.status === "SUCCESS");
    const doc = pull ? docsOf(pull)[0] : undefined;
    if (!pull || !doc) throw new Error("no seeded document");
    const served = (await (await api(`/teams/${TEAM}/pulls/${pull.pull_id}`)).json()) as { pull: { documents: Doc[] } };
    const downloadUrl = served.pull.documents[0]?.download_url ?? "";
    expect(downloadUrl).toBe(`${sandbox.baseUrl}/teams/${TEAM}/pulls/${pull.pull_id}/documents/${doc.document_id}`);

    const response = await api(`/teams/${TEAM}/pulls/${pull.pull_id}/documents/${doc.document_id}`);
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(await response.json()).toEqual({ url: location });
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
    expect(new URL(location).origin).toBe(sandbox.storageUrl);
    expect(sandbox.storageUrl).not.toBe(sandbox.url);

    const file = await fetch(location); // no authorization header
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    const text = expectValidPdf(Buffer.from(await file.arrayBuffer()));
    expect(text).toContain(pdfString(doc.title));
    expect(text).toContain(String(pull.last_name));
    expect((await api(`/pulls/${pull.pull_id}/documents/${doc.document_id}`)).status).toBe(404);
  });

  it("escapes the hostile account's names and document title inside the PDF", async () => {
    const hostile = pulls().find((p) => String(p.first_name).includes("<script>"));
    const doc = hostile ? docsOf(hostile).find((d) => d.title.includes('"')) : undefined;
    if (!hostile || !doc) throw new Error("no hostile document");
    const location =
      (await api(`/teams/${TEAM}/pulls/${hostile.pull_id}/documents/${doc.document_id}`)).headers.get("location") ?? "";
    const text = expectValidPdf(Buffer.from(await (await fetch(location)).arrayBuffer()));
    expect(text).toContain(pdfString(doc.title));
    expect(text).toContain(
      pdfString(
        `Account holder: ${[hostile.first_name, hostile.middle_name, hostile.last_name].filter(Boolean).join(" ")}`,
      ),
    );
  });

  it("serves consumer-uploaded answer files the same way", async () => {
    const pull = pulls().find((p) => uploadsOf(p).length > 0);
    const upload = pull ? uploadsOf(pull)[0] : undefined;
    if (!pull || !upload) throw new Error("no seeded upload");
    const path = `/teams/${TEAM}/pulls/${pull.pull_id}/answers/${upload.field.consumer_flow_section_field_id}/files/${upload.file.file_id}`;
    expect(`/teams/${TEAM}${upload.file.download_url}`).toBe(path); // stored relative, served under the team
    const response = await api(path);
    expect(response.status).toBe(302);
    const { url } = (await response.json()) as { url: string };
    const file = await fetch(url);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expectValidPdf(Buffer.from(await file.arrayBuffer()));
  });

  it("answers 404 NOT_FOUND for unknown pulls, documents, answers and files", async () => {
    const pull = pulls().find((p) => uploadsOf(p).length > 0 && docsOf(p).length > 0);
    const upload = pull ? uploadsOf(pull)[0] : undefined;
    if (!pull || !upload) throw new Error("no seeded upload");
    const unknown = "00000000-0000-4000-8000-000000000000";
    const fieldId = upload.field.consumer_flow_section_field_id;
    for (const path of [
      `/teams/${TEAM}/pulls/${unknown}/documents/${docsOf(pull)[0]?.document_id}`,
      `/teams/${TEAM}/pulls/${pull.pull_id}/documents/${unknown}`,
      `/teams/${TEAM}/pulls/${pull.pull_id}/documents/nope`,
      `/teams/${TEAM}/pulls/${pull.pull_id}/answers/${unknown}/files/${upload.file.file_id}`,
      `/teams/${TEAM}/pulls/${pull.pull_id}/answers/${fieldId}/files/${unknown}`,
    ]) {
      const response = await api(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: "NOT_FOUND" });
    }
    expect(
      (await api(`/teams/${TEAM}/pulls/${pull.pull_id}/documents/${docsOf(pull)[0]?.document_id}`, { method: "POST" }))
        .status,
    ).toBe(405);
    expect(
      (
        await fetch(
          `${sandbox.baseUrl}/teams/${TEAM}/pulls/${pull.pull_id}/documents/${docsOf(pull)[0]?.document_id}`,
          {
            redirect: "manual",
          },
        )
      ).status,
    ).toBe(401);
  });

  it("refuses tampered and expired links with 403 FORBIDDEN", async () => {
    const pull = pulls().find((p) => docsOf(p).length > 1);
    const [first, second] = pull ? docsOf(pull) : [];
    if (!pull || !first || !second) throw new Error("no pull with two documents");
    const location =
      (await api(`/teams/${TEAM}/pulls/${pull.pull_id}/documents/${first.document_id}`)).headers.get("location") ?? "";
    const url = new URL(location);
    const signature = url.searchParams.get("signature") ?? "";
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    const tampered = [
      location.replace(`signature=${signature}`, `signature=${flipped}`),
      location.replace(first.document_id, second.document_id),
      location.replace(/expires=\d+/, `expires=${Number(url.searchParams.get("expires")) + 3600}`),
      location.replace(/&signature=[0-9a-f]+/, ""),
      `${url.origin}${url.pathname}`,
    ];
    for (const link of tampered) {
      const response = await fetch(link);
      expect(response.status, link).toBe(403);
      expect(await response.json()).toEqual({ error: "FORBIDDEN" });
    }
    const expired = signedFileUrl(
      sandbox.context,
      { kind: "document", pullId: pull.pull_id, documentId: first.document_id },
      -1,
    );
    expect((await fetch(expired)).status).toBe(403);
    expect((await fetch(location)).status).toBe(200);
  });

  it("expires links when the sandbox clock moves past their lifetime", async () => {
    const pull = pulls().find((p) => docsOf(p).length > 0);
    const doc = pull ? docsOf(pull)[0] : undefined;
    if (!pull || !doc) throw new Error("no seeded document");
    const location =
      (await api(`/teams/${TEAM}/pulls/${pull.pull_id}/documents/${doc.document_id}`)).headers.get("location") ?? "";
    expect((await fetch(location)).status).toBe(200);
    sandbox.context.clock.advance(10 * 60_000);
    const response = await fetch(location);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "FORBIDDEN" });
    expect((await fetch(`${sandbox.storageUrl}/files/documents/nope`)).status).toBe(404);
  });

  it("serves the links only on the storage server, and nothing else there", async () => {
    const pull = pulls().find((p) => docsOf(p).length > 0);
    const doc = pull ? docsOf(pull)[0] : undefined;
    if (!pull || !doc) throw new Error("no seeded document");
    const location = new URL(
      (await api(`/teams/${TEAM}/pulls/${pull.pull_id}/documents/${doc.document_id}`)).headers.get("location") ?? "",
    );
    const onApi = await fetch(`${sandbox.url}${location.pathname}${location.search}`);
    expect(onApi.status).toBe(404);
    for (const path of [`/api/v1.0.0/pulls/${pull.pull_id}`, "/_sandbox/state", "/"]) {
      const response = await fetch(`${sandbox.storageUrl}${path}`, { headers: { authorization: auth } });
      expect(response.status, path).toBe(404);
    }
  });

  it("closes the storage server with the sandbox", async () => {
    const other = await startSandbox({ ...options, pullCount: 2 });
    expect((await fetch(`${other.storageUrl}/files/documents/nope`)).status).toBe(404);
    await other.close();
    await expect(fetch(`${other.storageUrl}/files/documents/nope`)).rejects.toThrow();
    await expect(fetch(`${other.url}/api/v1.0.0/health`)).rejects.toThrow();
  });
});
