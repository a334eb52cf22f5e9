// Premiums are typed in dollars and cents ("1,234.56", "$980") and stored as integer cents.
// Parsed as text, never through floating point, so "0.29" is 29 cents and not 28.99999.

export type ParsedCents = { ok: true; cents: number } | { ok: false; message: string };

const MAX_CENTS = 100_000_000_00; // $100 million: far above any personal or small-commercial premium

export function parseDollarsToCents(input: string): ParsedCents {
  const text = input.trim().replace(/^\$/, "").replace(/,/g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return { ok: false, message: "Enter the premium in dollars and cents, such as 1,234.56." };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return { ok: false, message: "That premium is too large." };
  if (cents <= 0) return { ok: false, message: "A won premium must be more than $0." };
  return { ok: true, cents };
}
