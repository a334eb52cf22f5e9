import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { z } from "zod";
import { readJson, send } from "../http";
import { listen } from "../listen";
import { createTokenIssuer } from "./jwt";
import { fieldErrorsOf, leadBodySchema, type LeadBody } from "./lead-body";
import { CARRIERS, DEMO_PASSWORD, DEMO_USERNAME, EMPLOYEES, LEAD_SOURCES, PIPELINES, PRODUCT_LINES } from "./seed";

// A stand-in for AgencyZoom's REST API (https://api.agencyzoom.com), as strict as the real one
// where its documentation says how it behaves: sign-in with a username and password for a JWT
// that expires, a bearer on every other call (401 without one), a lead's required fields and
// their types (400 with `fieldErrors`), 404 for an unknown lead, and a create that is not
// idempotent (the same body twice makes two leads). Leads live in memory. Besides AgencyZoom's
// paths, a control API under /_sandbox lets tests and the demo count leads and expire tokens,
// and /lead/index?id= stands in for AgencyZoom's page of a lead, where Coverdesk links to it.

export type StoredLead = LeadBody & { id: number; createdAt: string; updatedAt: string; notesAdded: string[] };

export type AgencyZoomSandboxOptions = {
  port: number;
  host?: string;
  username?: string;
  password?: string;
  /** How long a JWT lasts; AgencyZoom's last hours, tests shorten it. */
  tokenTtlSeconds?: number;
  log?: (line: string) => void;
};

export type AgencyZoomSandbox = {
  url: string;
  leads: Map<number, StoredLead>;
  /** Requests each path answered, by status: tests assert that nothing was refused. */
  requests: Array<{ method: string; path: string; status: number }>;
  expireTokens: () => void;
  close: () => Promise<void>;
};

const API = "/v1/api";

const loginSchema = z.strictObject({ username: z.string().min(1), password: z.string().min(1) });
const noteSchema = z.strictObject({ note: z.string().trim().min(1).max(20_000) });

/** AgencyZoom's 401 body (a Yii-style error object). */
const UNAUTHORIZED = {
  name: "Unauthorized",
  message: "Your request was made with invalid credentials.",
  code: 0,
  status: 401,
};

const notFound = (res: ServerResponse, what: string) =>
  send(res, 404, { name: "Not Found", message: `${what} not found.`, code: 0, status: 404 });

export async function startAgencyZoomSandbox(options: AgencyZoomSandboxOptions): Promise<AgencyZoomSandbox> {
  const username = options.username ?? DEMO_USERNAME;
  const password = options.password ?? DEMO_PASSWORD;
  const tokens = createTokenIssuer(options.tokenTtlSeconds ?? 4 * 3600);
  const log = options.log ?? (() => {});
  const leads = new Map<number, StoredLead>();
  const requests: AgencyZoomSandbox["requests"] = [];
  let nextLeadId = 1_000_001;

  /** Whether the body's ids are ones this agency has: 400 fieldErrors otherwise, as AgencyZoom answers. */
  function unknownIds(body: LeadBody): Array<{ field: string; error: string }> {
    const errors: Array<{ field: string; error: string }> = [];
    const pipeline = PIPELINES.find((p) => p.id === body.pipelineId);
    if (!pipeline) errors.push({ field: "pipelineId", error: "is not a pipeline of this agency" });
    else if (!pipeline.stages.some((s) => s.id === body.stageId))
      errors.push({ field: "stageId", error: "is not a stage of the pipeline" });
    if (!LEAD_SOURCES.some((s) => s.id === body.leadSourceId))
      errors.push({ field: "leadSourceId", error: "is not a lead source of this agency" });
    if (!EMPLOYEES.some((e) => e.id === body.assignTo))
      errors.push({ field: "assignTo", error: "is not a user of this agency" });
    if (body.csrId !== undefined && !EMPLOYEES.some((e) => e.id === body.csrId))
      errors.push({ field: "csrId", error: "is not a user of this agency" });
    return errors;
  }

  async function readLead(req: IncomingMessage, res: ServerResponse): Promise<LeadBody | null> {
    const read = await readJson(req);
    if (!read.ok) {
      send(res, 400, { error: "The body is not JSON.", fieldErrors: [] });
      return null;
    }
    const parsed = leadBodySchema.safeParse(read.value, { reportInput: true });
    if (!parsed.success) {
      send(res, 400, { error: "Validation failed.", fieldErrors: fieldErrorsOf(parsed.error) });
      return null;
    }
    const errors = unknownIds(parsed.data);
    if (errors.length > 0) {
      send(res, 400, { error: "Validation failed.", fieldErrors: errors });
      return null;
    }
    return parsed.data;
  }

  async function route(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, "") || "/";

    if (path.startsWith("/_sandbox/")) return control(req, res, method, path);
    if (method === "GET" && path === "/lead/index") return leadPage(res, url);
    if (!path.startsWith(`${API}/`)) return void notFound(res, "Page");

    if (path === `${API}/auth/login`) {
      if (method !== "POST") return void send(res, 405, { error: "Method Not Allowed" });
      const read = await readJson(req);
      const parsed = read.ok ? loginSchema.safeParse(read.value) : null;
      if (!parsed?.success)
        return void send(res, 400, {
          error: "Validation failed.",
          fieldErrors: [
            { field: "username", error: "is required" },
            { field: "password", error: "is required" },
          ],
        });
      if (parsed.data.username !== username || parsed.data.password !== password)
        return void send(res, 401, { ...UNAUTHORIZED, message: "Incorrect username or password." });
      return void send(res, 200, { jwt: tokens.issue(parsed.data.username) });
    }

    // Every other path needs a live bearer token (the OpenAPI's global BearerAuth).
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !tokens.verify(bearer)) return void send(res, 401, UNAUTHORIZED);

    if (path === `${API}/auth/logout` && method === "POST") {
      res.writeHead(204).end();
      return;
    }
    if (method === "GET" && path === `${API}/employees`) return void send(res, 200, EMPLOYEES);
    if (method === "GET" && path === `${API}/pipelines-and-stages`) return void send(res, 200, PIPELINES);
    if (method === "GET" && path === `${API}/carriers`) return void send(res, 200, CARRIERS);
    if (method === "GET" && path === `${API}/product-lines`) return void send(res, 200, PRODUCT_LINES);

    if (path === `${API}/leads/create`) {
      if (method !== "POST") return void send(res, 405, { error: "Method Not Allowed" });
      const body = await readLead(req, res);
      if (!body) return;
      // Not idempotent, as AgencyZoom's own create is not: every valid body is a new lead.
      const id = nextLeadId++;
      const at = new Date().toISOString();
      leads.set(id, { ...body, id, createdAt: at, updatedAt: at, notesAdded: [] });
      log(`agencyzoom: lead ${id} created (${body.firstname})`);
      return void send(res, 201, { message: "Lead created successfully.", id, result: true });
    }

    const lead = new RegExp(`^${API}/leads/([^/]+)(/notes)?$`).exec(path);
    if (lead) {
      const id = /^\d+$/.test(lead[1] ?? "") ? Number(lead[1]) : NaN;
      const stored = leads.get(id);
      if (lead[2]) {
        if (method !== "POST" && method !== "GET") return void send(res, 405, { error: "Method Not Allowed" });
        if (!stored) return void notFound(res, "Lead");
        if (method === "GET")
          return void send(
            res,
            200,
            stored.notesAdded.map((note) => ({ note })),
          );
        const read = await readJson(req);
        const parsed = read.ok ? noteSchema.safeParse(read.value) : null;
        if (!parsed?.success)
          return void send(res, 400, {
            error: "Validation failed.",
            fieldErrors: [{ field: "note", error: "is required" }],
          });
        stored.notesAdded.push(parsed.data.note);
        return void send(res, 201, { message: "Note added.", result: true });
      }
      if (method === "GET") return void (stored ? send(res, 200, stored) : notFound(res, "Lead"));
      if (method === "PUT") {
        if (!stored) return void notFound(res, "Lead");
        const body = await readLead(req, res);
        if (!body) return;
        leads.set(id, {
          ...body,
          id,
          createdAt: stored.createdAt,
          updatedAt: new Date().toISOString(),
          notesAdded: stored.notesAdded,
        });
        log(`agencyzoom: lead ${id} updated`);
        return void send(res, 200, { message: "Lead updated successfully.", result: true });
      }
      return void send(res, 405, { error: "Method Not Allowed" });
    }
    notFound(res, "Page");
  }

  /** The control API: not AgencyZoom's; for tests and the demo. */
  async function control(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    if (method === "GET" && path === "/_sandbox/leads")
      return void send(res, 200, { count: leads.size, leads: [...leads.values()] });
    if (method === "GET" && path === "/_sandbox/lead-sources") return void send(res, 200, LEAD_SOURCES);
    if (method === "POST" && path === "/_sandbox/expire-tokens") {
      tokens.expireAll();
      return void send(res, 200, { expired: true });
    }
    if (method === "POST" && path === "/_sandbox/reset") {
      leads.clear();
      requests.length = 0;
      return void send(res, 200, { reset: true });
    }
    void req;
    notFound(res, "Control route");
  }

  /** AgencyZoom's page of a lead, as far as Coverdesk's link needs one. */
  function leadPage(res: ServerResponse, url: URL): void {
    const stored = leads.get(Number(url.searchParams.get("id")));
    const escape = (v: unknown) => String(v ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.writeHead(stored ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(
      stored
        ? `<!doctype html><title>Lead ${stored.id}</title><h1>${escape(stored.firstname)} ${escape(stored.lastname)}</h1><p>AgencyZoom stand-in: lead ${stored.id}, ${escape(stored.email)}</p><pre>${escape(stored.notes)}</pre>`
        : "<!doctype html><title>Not found</title><p>No such lead.</p>",
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://agencyzoom");
    const method = req.method ?? "GET";
    res.on("finish", () => requests.push({ method, path: url.pathname, status: res.statusCode }));
    route(req, res, method, url).catch((error: unknown) => {
      log(`agencyzoom: internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, { name: "Internal Server Error", message: "", code: 0, status: 500 });
    });
  });
  const listening = await listen(server, options.port, options.host ?? "127.0.0.1");
  return { url: listening.origin, leads, requests, expireTokens: tokens.expireAll, close: listening.close };
}
