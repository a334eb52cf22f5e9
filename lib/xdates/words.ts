import { humanize } from "@/lib/format";

// X-dates in words, shared by the page, the CSV and the calendar feed. Pure.

/** The account holder as people write them: "Jane Doe", else their email, else "Unnamed account". */
export function personName(row: { firstName: string | null; lastName: string | null; email?: string | null }): string {
  const name = [row.firstName, row.lastName].filter((p) => p && p.trim()).join(" ");
  return name || row.email || "Unnamed account";
}

/** "Progressive auto", "State Farm homeowners", "Unknown carrier flood". */
export function describeLine(carrier: string | null, policyType: string | null): string {
  const line = policyType ? humanize(policyType).toLowerCase() : "policy";
  return `${carrier?.trim() || "Unknown carrier"} ${line}`;
}
