import { z } from "zod";
import { describe, expect, it } from "vitest";
import { firstParam, parseSearchFields, searchParamsOf } from "./search-params";

// One way to read a query: a page's `searchParams` and a route handler's URL give the same
// fields, a repeated parameter counts by its first value, and a bad one is named, not fatal.

describe("reading the URL's search parameters", () => {
  it("keeps repeats from a route handler's URL, as pages receive them", () => {
    expect(searchParamsOf("http://localhost/api/x?a=1&b=2&a=3&c=")).toEqual({ a: ["1", "3"], b: "2", c: "" });
    expect(firstParam(searchParamsOf("http://localhost/?a=1&a=3"), "a")).toBe("1");
  });

  it("parses each field alone: missing and blank are left out, bad ones are named", () => {
    const fields = { page: z.coerce.number().int().min(1), sort: z.enum(["name", "created"]), q: z.string() };
    expect(parseSearchFields(fields, searchParamsOf("http://localhost/?page=2&page=9&sort=size&q=%20"))).toEqual({
      values: { page: 2 },
      ignored: ["sort"],
    });
  });
});
