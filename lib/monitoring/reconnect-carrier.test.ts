import { describe, expect, it } from "vitest";
import type { Carrier } from "@/lib/service/schemas";
import { thirdFieldMatches } from "./reconnect-carrier";

const carrierWithRule = (rule: string, flags: string | null = null) =>
  ({ carrier_id: "acme", name: "Acme", thirdFieldValidatorRgx: rule, thirdFieldValidatorRgxFlags: flags }) as Carrier;

describe("the carrier's third-field rule on a consumer's answer", () => {
  it("applies the rule the service gives", () => {
    const pin = carrierWithRule("^\\d{4}$");
    expect(thirdFieldMatches(pin, "1234")).toBe(true);
    expect(thirdFieldMatches(pin, "12a4")).toBe(false);
    expect(thirdFieldMatches(carrierWithRule("^abc$", "i"), "ABC")).toBe(true);
  });

  it("gives up on a rule that backtracks without end instead of holding the server", () => {
    // (a+)+$ on 40 a's and a "!" takes about 2^40 steps: days. Without the time limit this
    // test never returns (the match holds the thread, so no test timeout can fire either).
    expect(thirdFieldMatches(carrierWithRule("^(a+)+$"), `${"a".repeat(40)}!`)).toBe(true);
  });

  it("does not hold a broken or oversized rule against the consumer", () => {
    expect(thirdFieldMatches(carrierWithRule("(unclosed"), "x")).toBe(true);
    expect(thirdFieldMatches(carrierWithRule(`^${"a".repeat(600)}$`), "x")).toBe(true);
    expect(thirdFieldMatches(null, "x")).toBe(true);
  });
});
