import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents } from "@/db/schema";
import type { Actor } from "@/lib/core/actor";
import type { ServiceConfig } from "@/lib/service/client";
import { fetchPullPayload } from "@/lib/service/pulls-api";
import type { Sandbox } from "@/sandbox/server";
import { createTestDatabase, type TestDatabase } from "@/test/database";
import { startServiceSandbox } from "@/test/service-sandbox";
import { createStaff } from "@/test/workflow-fixture";
import { downloadAnswerFile, downloadPolicyForm, downloadPullDocument } from "./document-downloads";
import { storePull } from "@/lib/ingest/store-pull";

// A pull's documents, uploads and policy forms through Coverdesk, against the sandbox over real
// HTTP: the service answers 302 to a signed link on its separate storage server, which the
// relay fetches (no setting: development and test allow this machine) and streams back, on
// the audit trail. Only what the stored pull lists downloads, and a download_url that is not on
// the configured service is never asked with our credentials.

const TEAM = "b6c7d8e9-f0a1-4b2c-8d3e-4f5a6b7c8d9e";
type Raw = {
  pull_id: string;
  documents: Array<{ document_id: string; title: string; download_url: string }>;
  answers: Array<{
    fields: Array<{ consumer_flow_section_field_id: string; value: unknown }>;
  }>;
  policies: Array<{ forms_and_endorsements: Array<{ policy_form_id: string; form_name: string }> }>;
};
type Upload = { answerId: string; fileId: string; name: string; download_url: string };

let database: TestDatabase;
let sandbox: Sandbox;
let service: ServiceConfig;
let user: Actor;
/** Every pull as the service serves it, and those of them Coverdesk stored. */
const served: Raw[] = [];
const stored: Raw[] = [];
/** A host that is not the service, counting what reaches it. */
let elsewhere: { server: Server; origin: string; hits: string[] };

const uploadsOf = (pull: Raw): Upload[] =>
  pull.answers.flatMap((section) =>
    section.fields.flatMap((field) =>
      Array.isArray(field.value)
        ? (field.value as Array<{ file_id: string; name: string; download_url: string }>).map((file) => ({
            answerId: field.consumer_flow_section_field_id,
            fileId: file.file_id,
            name: file.name,
            download_url: file.download_url,
          }))
        : [],
    ),
  );
const formsOf = (pull: Raw) => pull.policies.flatMap((policy) => policy.forms_and_endorsements);
const find = <T>(pick: (pull: Raw) => T | undefined): { pull: Raw; item: T } => {
  for (const pull of stored) {
    const item = pick(pull);
    if (item !== undefined) return { pull, item };
  }
  throw new Error("nothing of that kind in the seeded book");
};
const text = async (response: Response) => Buffer.from(await response.arrayBuffer()).toString("latin1");
const downloadsAudited = async (pullId: string) =>
  (
    await database.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.pullId, pullId), eq(auditEvents.action, "DOCUMENT_DOWNLOADED")))
  ).map((row) => row.details);

beforeAll(async () => {
  database = await createTestDatabase();
  const staff = await createStaff(database.db);
  user = { ...staff.agent, sessionId: "s" };
  ({ sandbox, service } = await startServiceSandbox("downloads", { teamId: TEAM, seed: 47, pullCount: 36 }));
  // Called by another of this machine's names than the one it writes its addresses with, as `npm run dev` does.
  service = { ...service, baseUrl: sandbox.baseUrl.replace("127.0.0.1", "localhost") };
  for (const pullId of sandbox.state.pulls.keys())
    served.push(((await fetchPullPayload(service, pullId)) as { pull: Raw }).pull);
  // Stored: a pull with a document and an upload, and one with a policy form (the rest stay at the service).
  const picks = [
    served.find((p) => p.documents.length > 0 && uploadsOf(p).length > 0),
    served.find((p) => formsOf(p).length > 0),
  ];
  for (const pull of new Set(picks)) {
    if (!pull) throw new Error("the seeded book lacks a document, an upload or a policy form");
    expect((await storePull(database.db, { pull })).outcome).toBe("created");
    stored.push(pull);
  }
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.url} ${request.headers.authorization ?? ""}`);
    response.writeHead(302, { location: "http://127.0.0.1:9/never" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  elsewhere = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
});
afterAll(async () => {
  await new Promise((resolve) => elsewhere?.server.close(resolve));
  await sandbox?.close();
  await database?.close();
});

describe("downloads through Coverdesk from the service's storage server", () => {
  it("relays a document as a PDF and records who downloaded it", async () => {
    const { pull, item: document } = find((p) => p.documents[0]);
    expect(document.download_url).toMatch(new RegExp(`^${sandbox.baseUrl}/teams/${TEAM}/pulls/`));
    const response = await downloadPullDocument(database.db, service, user, {
      pullId: pull.pull_id,
      documentId: document.document_id,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(await text(response)).toMatch(/^%PDF-/);
    expect(await downloadsAudited(pull.pull_id)).toContainEqual({
      documentId: document.document_id,
      title: document.title,
    });
  });

  it("relays a consumer's upload by its own download_url", async () => {
    const { pull, item: upload } = find((p) => uploadsOf(p)[0]);
    const response = await downloadAnswerFile(database.db, service, user, {
      pullId: pull.pull_id,
      answerId: upload.answerId,
      fileId: upload.fileId,
    });
    expect(response.status).toBe(200);
    expect(await text(response)).toMatch(/^%PDF-/);
    expect(await downloadsAudited(pull.pull_id)).toContainEqual({ fileId: upload.fileId, title: upload.name });
  });

  it("relays a policy form the pull lists, and answers 404 for a form it does not list", async () => {
    const { pull, item: form } = find((p) => formsOf(p)[0]);
    const response = await downloadPolicyForm(database.db, service, user, {
      pullId: pull.pull_id,
      policyFormId: form.policy_form_id,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^inline; filename=".+\.pdf"$/);
    expect(await text(response)).toContain(form.form_name);
    expect(await downloadsAudited(pull.pull_id)).toContainEqual({
      policyFormId: form.policy_form_id,
      title: form.form_name,
    });

    // Another pull's form exists at the service, but not on this pull.
    const other = served
      .flatMap(formsOf)
      .find((f) => !formsOf(pull).some((own) => own.policy_form_id === f.policy_form_id));
    expect(other).toBeDefined();
    const auditedBefore = (await downloadsAudited(pull.pull_id)).length;
    for (const policyFormId of [other?.policy_form_id ?? "none", "00000000-0000-4000-8000-000000000000"]) {
      const refused = await downloadPolicyForm(database.db, service, user, { pullId: pull.pull_id, policyFormId });
      expect(refused.status, policyFormId).toBe(404);
      expect(await refused.json()).toMatchObject({ error: "NOT_FOUND" });
    }
    expect(await downloadsAudited(pull.pull_id)).toHaveLength(auditedBefore);
  });

  it("refuses a download_url that is not on the configured service, without asking it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { pull, item: upload } = find((p) => (p.documents.length > 0 ? uploadsOf(p)[0] : undefined));
    const document = pull.documents[0];
    if (!document) throw new Error("no document");
    // The same pull as a hostile or mistaken payload would give it: its files' routes on other hosts.
    const moved = JSON.parse(
      JSON.stringify(pull)
        .replaceAll(upload.download_url, `${elsewhere.origin}${new URL(upload.download_url).pathname}`)
        .replaceAll(document.download_url, `${elsewhere.origin}/api/v1.0.0/teams/${TEAM}/d`),
    ) as Raw;
    expect((await storePull(database.db, { pull: moved })).outcome).toBe("updated");

    const responses = [
      await downloadAnswerFile(database.db, service, user, {
        pullId: pull.pull_id,
        answerId: upload.answerId,
        fileId: upload.fileId,
      }),
      await downloadPullDocument(database.db, service, user, {
        pullId: pull.pull_id,
        documentId: document.document_id,
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(502);
      expect(((await response.json()) as { message: string }).message).toMatch(/outside the service/);
    }
    expect(elsewhere.hits).toEqual([]);
    vi.restoreAllMocks();
  });
});
