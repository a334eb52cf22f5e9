import { describe, expect, it } from "vitest";
import { isReadingType, pullTypeLabel, pullTypeNote, standsAlone } from "./pull-types";

// How each type of pull is worded on the list and the page, and which pulls say they stand alone.

describe("pull types", () => {
  it("a PULLING_DATA pull, or one that names no type, is a reading with nothing to explain", () => {
    for (const type of ["PULLING_DATA", null]) {
      expect(isReadingType(type)).toBe(true);
      expect(pullTypeNote(type)).toBeNull();
    }
  });

  it("every other type says what it is, an undocumented one as it came", () => {
    expect(pullTypeNote("CONTACT_ME")).toContain("A new lead");
    expect(pullTypeNote("SERVICING")).toContain("shown under its servicing request");
    for (const type of ["DOCUMENT_UPLOAD", "DOCUMENT_PARSING", "MANUAL_ENTRY", "POLICY_LOOKUP", "AGENT", "NEW_KIND"]) {
      expect(isReadingType(type)).toBe(false);
      expect(pullTypeNote(type)).toContain("never replaces a household's policies");
    }
    expect(pullTypeLabel("DOCUMENT_UPLOAD")).toBe("Uploaded documents");
    expect(pullTypeLabel("NEW_KIND")).toBe("NEW_KIND");
  });

  it("only a successful top-level reading that nothing joined to an account stands alone", () => {
    const alone = { type: "PULLING_DATA", status: "SUCCESS", accountKey: null, parentPullId: null };
    expect(standsAlone(alone)).toBe(true);
    expect(standsAlone({ ...alone, type: null })).toBe(true);
    expect(standsAlone({ ...alone, accountKey: "acct-1" })).toBe(false);
    expect(standsAlone({ ...alone, type: "CONTACT_ME" })).toBe(false);
    expect(standsAlone({ ...alone, parentPullId: "p" })).toBe(false);
    expect(standsAlone({ ...alone, status: "NOT_AUTHENTICATED" })).toBe(false);
  });
});
