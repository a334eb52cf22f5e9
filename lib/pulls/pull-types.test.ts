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

  it("only a top-level reading that nothing joined to an account stands alone", () => {
    expect(standsAlone({ type: "PULLING_DATA", accountKey: null, parentPullId: null })).toBe(true);
    expect(standsAlone({ type: null, accountKey: null, parentPullId: null })).toBe(true);
    expect(standsAlone({ type: "PULLING_DATA", accountKey: "acct-1", parentPullId: null })).toBe(false);
    expect(standsAlone({ type: "CONTACT_ME", accountKey: null, parentPullId: null })).toBe(false);
    expect(standsAlone({ type: "PULLING_DATA", accountKey: null, parentPullId: "p" })).toBe(false);
  });
});
