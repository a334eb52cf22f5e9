import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable";

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises lost connections, directly or wrapped by the query builder", () => {
    expect(isDatabaseUnavailable(withCode("CONNECTION_CLOSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P01"))).toBe(true); // admin shutdown
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true); // connection failure
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: withCode("ECONNRESET") }))).toBe(true);
  });

  it("leaves every other failure to be counted against the event", () => {
    expect(isDatabaseUnavailable(withCode("23505"))).toBe(false); // unique violation
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable("CONNECTION_CLOSED")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
