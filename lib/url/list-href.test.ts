import { describe, expect, it } from "vitest";
import { listHref } from "./list-href";

const fields = ["q", "range", "page"] as const;
type Query = { q?: string; range?: number; page?: number };

describe("listHref", () => {
  it("writes the query in the fields' order, whatever order it was given in", () => {
    const query: Query = { page: 3, range: 30, q: "smith" };
    expect(listHref("/list", fields, query)).toBe("/list?q=smith&range=30&page=3");
  });

  it("leaves out empties, page 1 and the list's defaults, so one view has one link", () => {
    expect(listHref("/list", fields, { q: "", range: 90, page: 1 } as Query, {}, { range: 90 })).toBe("/list");
    expect(listHref("/list", fields, { range: 60 } as Query, {}, { range: 90 })).toBe("/list?range=60");
  });

  it("applies changes over the query, an undefined change removing a part", () => {
    const query: Query = { q: "smith", page: 4 };
    expect(listHref("/list", fields, query, { page: undefined, range: 30 })).toBe("/list?q=smith&range=30");
    expect(listHref("/api/list/csv", fields, query, { page: undefined })).toBe("/api/list/csv?q=smith");
  });

  it("ignores parts that are not fields of the list", () => {
    expect(listHref("/list", fields, { q: "a", other: "x" } as Query)).toBe("/list?q=a");
  });
});
