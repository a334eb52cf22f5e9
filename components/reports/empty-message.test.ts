import { describe, expect, it } from "vitest";
import { emptyMessage } from "./empty-message";

const agent = "b0000000-0000-4000-8000-000000000012";

describe("emptyMessage", () => {
  it("says nothing was won in the range, and which filters would widen it", () => {
    expect(emptyMessage("won", { from: "2026-07-01", agent })).toBe(
      "No pulls were won in this range. Widen the dates or clear the agent filter.",
    );
    expect(emptyMessage("won", { to: "2026-07-01" })).toBe("No pulls were won in this range. Widen the dates.");
    expect(emptyMessage("decided", { from: "2026-07-01", agent, line: "AUTO", link: "spring" })).toBe(
      "No pulls were won or lost in this range. Widen the dates or clear the agent, line of business and link filters.",
    );
  });

  it("names the filters without dates, and says plainly when nothing has happened yet", () => {
    expect(emptyMessage("linked", { line: "AUTO" })).toBe(
      "No accounts were linked with these filters. Clear the line of business filter.",
    );
    expect(emptyMessage("won", { period: "week" })).toBe("No pulls have been won yet.");
    expect(emptyMessage("linked", {})).toBe("No accounts have been linked yet.");
  });
});
