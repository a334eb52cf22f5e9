import { describe, expect, it } from "vitest";
import {
  parseErrorBody,
  parsePullListResponse,
  parsePullResponse,
  pullSessionResponseSchema,
  documentUrlResponseSchema,
} from "./responses";
import { kindsAt, only, PULL_ID } from "./test-support";

// The envelopes around resources. The real service wraps a pull as `{ success, pull }`, the
// spec shows it bare; both must give the same pull and the same problem paths.

const bare = { pull_id: PULL_ID, status: "SUCCESS", policy_check_status: 7, policies: [{ policy_id: "p-1" }] };

describe("parsePullResponse", () => {
  it("reads the enveloped and the bare form alike, with paths relative to the pull", () => {
    const enveloped = parsePullResponse({ success: true, pull: bare });
    const plain = parsePullResponse(bare);
    expect(enveloped).toEqual(plain);
    expect(enveloped.ok).toBe(true);
    if (!enveloped.ok) return;
    expect(enveloped.pull.pull_id).toBe(PULL_ID);
    expect(enveloped.problems.map((p) => p.path)).toEqual(["policy_check_status"]);
  });

  it("fails for an envelope without a pull, and for a pull without an id", () => {
    expect(parsePullResponse({ success: true }).ok).toBe(false);
    expect(parsePullResponse({ success: true, pull: null }).ok).toBe(false);
    expect(parsePullResponse({ success: true, pull: { status: "SUCCESS" } }).ok).toBe(false);
  });

  it("treats an object that has a pull_id as the pull itself, even with a `pull` field", () => {
    const result = parsePullResponse({ ...bare, pull: { pull_id: "00000000-0000-4000-8000-000000000000" } });
    expect(result.ok && result.pull.pull_id).toBe(PULL_ID);
  });
});

describe("parsePullListResponse", () => {
  it("keeps the usable pulls and reports the unusable one at its index", () => {
    const result = parsePullListResponse({
      total_pulls: 3,
      pulls: [bare, { status: "SUCCESS" }, { ...bare, pull_id: "59ced597-b48f-49e3-9756-799e4c6f79a1" }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.total_pulls).toBe(3);
    expect(result.value.pulls.map((p) => p.pull_id)).toEqual([PULL_ID, "59ced597-b48f-49e3-9756-799e4c6f79a1"]);
    expect(kindsAt(result.problems, "pulls[1]")).toEqual(["dropped_item"]);
    // Problems inside kept pulls are reported under their list index.
    expect(kindsAt(result.problems, "pulls[0].policy_check_status")).toEqual(["wrong_type"]);
  });

  it("fails when the list itself is missing, since the answer is then not a page of pulls", () => {
    expect(parsePullListResponse({ total_pulls: 0 }).ok).toBe(false);
    expect(parsePullListResponse({ total_pulls: 0, pulls: "none" }).ok).toBe(false);
  });

  it("accepts an empty page", () => {
    const result = parsePullListResponse({ total_pulls: 0, pulls: [] });
    expect(result.ok && result.value.pulls).toEqual([]);
  });
});

describe("small answers", () => {
  it("parseErrorBody reads the code and optional message, and refuses what is not an error", () => {
    expect(parseErrorBody({ error: "NOT_FOUND" })).toEqual({ error: "NOT_FOUND", message: null });
    expect(parseErrorBody({ error: "INVALID_INPUT", message: "interval too short", detail: 1 })).toEqual({
      error: "INVALID_INPUT",
      message: "interval too short",
      detail: 1,
    });
    expect(parseErrorBody({ success: true })).toBeNull();
    expect(parseErrorBody({ error: "" })).toBeNull();
    expect(parseErrorBody("NOT_FOUND")).toBeNull();
  });

  it("a pull session needs both its pull id and its JWT", () => {
    expect(pullSessionResponseSchema.parse({ pull_id: PULL_ID, pull_jwt: "jwt" })).toEqual({
      pull_id: PULL_ID,
      pull_jwt: "jwt",
    });
    expect(pullSessionResponseSchema.safeParse({ pull_id: PULL_ID }).success).toBe(false);
  });

  it("a download answer needs its URL", () => {
    expect(only([documentUrlResponseSchema.parse({ url: "https://files.example/x.pdf" })]).url).toBe(
      "https://files.example/x.pdf",
    );
    expect(documentUrlResponseSchema.safeParse({}).success).toBe(false);
  });
});
