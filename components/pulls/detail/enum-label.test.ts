import { describe, expect, it } from "vitest";
import { DOCUMENT_TYPES, POLICY_STATUSES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

describe("enumLabel", () => {
  it("humanises documented values and shows others as they came", () => {
    expect(enumLabel(POLICY_STATUSES, "PENDING_CANCELLATION")).toBe("Pending cancellation");
    expect(enumLabel(DOCUMENT_TYPES, "LOSS_RUN")).toBe("LOSS_RUN");
    expect(enumLabel(DOCUMENT_TYPES, null)).toBe("—");
  });
});
