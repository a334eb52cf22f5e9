import { describe, expect, it } from "vitest";
import { pageCountOf, pageNumber, pageSlice } from "./page-number";

describe("a list's pages", () => {
  it("reads a page number from the URL, dropping what is not one", () => {
    expect(pageNumber().safeParse("3")).toMatchObject({ success: true, data: 3 });
    for (const bad of ["0", "-3", "abc", "1.5", "10001"]) expect(pageNumber().safeParse(bad).success).toBe(false);
    expect(pageNumber(100_000).safeParse("10001").success).toBe(true);
  });

  it("slices the rows of a page, the first page from the top", () => {
    expect(pageSlice(1, 50)).toEqual({ limit: 50, offset: 0 });
    expect(pageSlice(3, 50)).toEqual({ limit: 50, offset: 100 });
  });

  it("counts the pages the rows fill, one for an empty list", () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(50, 50)).toBe(1);
    expect(pageCountOf(51, 50)).toBe(2);
  });
});
