import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AgencyzoomConfig } from "@/lib/env";
import {
  AgencyzoomError,
  createAgencyzoomLead,
  forgetAgencyzoomTokens,
  MAX_AGENCYZOOM_ANSWER_BYTES,
} from "./agencyzoom-client";
import type { AgencyzoomLead } from "./agencyzoom-lead";

// The client against an AgencyZoom that misbehaves: a redirect is not followed (the bearer token
// would go with it), an endless answer is cut at the ceiling, a silent one times out, and a
// create's answer without a lead id is not taken for a success.

let server: Server;
let origin = "";
let behaviour: "redirect" | "huge" | "silent" | "no-id" = "redirect";
const hits: string[] = [];

const LEAD: AgencyzoomLead = {
  firstname: "Clark",
  email: "clark@example.com",
  leadSourceId: 7001,
  assignTo: 3001,
  country: "US",
  pipelineId: 5001,
  stageId: 50011,
};

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.authorization ? "bearer" : "none"}`);
    if (req.url === "/v1/api/auth/login") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jwt: "header.payload.signature" }));
      return;
    }
    if (req.url === "/elsewhere") {
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ id: 1 }));
      return;
    }
    if (behaviour === "redirect") res.writeHead(307, { location: `${origin}/elsewhere` }).end();
    else if (behaviour === "huge") {
      res.writeHead(201, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_AGENCYZOOM_ANSWER_BYTES * 2) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    } else if (behaviour === "no-id")
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ result: true }));
    // "silent": never answers
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
  forgetAgencyzoomTokens();
});

const config = (timeoutMs = 5000): AgencyzoomConfig => ({ baseUrl: origin, username: "u", password: "p", timeoutMs });

async function refusal(run: Promise<unknown>): Promise<AgencyzoomError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AgencyzoomError)) throw new Error(`expected an AgencyzoomError, got ${String(error)}`);
  return error;
}

describe("the AgencyZoom client", () => {
  it("does not follow a redirect, so the bearer token goes nowhere else", async () => {
    behaviour = "redirect";
    const error = await refusal(createAgencyzoomLead(config(), LEAD));
    expect(error.kind).toBe("UPSTREAM");
    expect(error.message).toMatch(/redirect/);
    expect(hits.some((h) => h.startsWith("GET /elsewhere") || h.startsWith("POST /elsewhere"))).toBe(false);
  });

  it("stops reading an answer past 1 MiB", async () => {
    behaviour = "huge";
    const error = await refusal(createAgencyzoomLead(config(), LEAD));
    expect(error).toMatchObject({ kind: "UPSTREAM" });
    expect(error.message).toMatch(/larger than 1 MiB/);
  });

  it("gives up on an AgencyZoom that does not answer in time", async () => {
    behaviour = "silent";
    const error = await refusal(createAgencyzoomLead(config(300), LEAD));
    expect(error).toMatchObject({ kind: "UPSTREAM", status: 0 });
    expect(error.message).toMatch(/did not answer within/);
  });

  it("does not take a create's answer without a lead id for a success", async () => {
    behaviour = "no-id";
    const error = await refusal(createAgencyzoomLead(config(), LEAD));
    expect(error.message).toMatch(/named no lead id/);
    // Signed in without a bearer, then created with one.
    expect(hits).toEqual(["POST /v1/api/auth/login none", "POST /v1/api/leads/create bearer"]);
  });
});
