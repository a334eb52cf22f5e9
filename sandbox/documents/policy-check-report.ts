import type { SandboxPull } from "../data/pulls";
import type { PdfPage } from "./pdf";

// The page of a pull's policy-check report (GET …/pulls/{pullId}/policyCheck/pdf): the account,
// the overall status, and one line per check with what was found.

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === "object" && v !== null) : [];
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Names the vehicle or dwelling a result is about, as the agent would recognise it. */
function subject(pull: SandboxPull, result: Row): string {
  for (const policy of rows(pull.policies)) {
    const vehicle = rows(policy.vehicles).find((v) => v.vehicle_id === result.vehicle_id);
    if (vehicle)
      return (
        [vehicle.year, vehicle.make, vehicle.model].filter((p) => p !== null && p !== undefined).join(" ") || "Vehicle"
      );
    const dwelling = rows(policy.dwellings).find((d) => d.dwelling_id === result.dwelling_id);
    if (dwelling) return str((dwelling.address as Row | undefined)?.full_address) ?? "Dwelling";
  }
  return "Policy";
}

export function policyCheckPage(pull: SandboxPull, checkedAt: Date): PdfPage {
  const holder = [pull.first_name, pull.last_name].map(str).filter(Boolean).join(" ") || "Unknown account holder";
  const results = rows(pull.policy_check_results);
  const lines = [
    `Account holder: ${holder}`,
    `Carrier: ${str(pull.insurance_provider_friendly_name) ?? "unknown"}`,
    `Pull: ${pull.pull_id}`,
    `Status: ${str(pull.policy_check_status) ?? "not checked"}`,
    `Report generated: ${checkedAt.toISOString().slice(0, 10)}`,
    "",
  ];
  if (results.length === 0) lines.push("No policy check has run on this pull.");
  for (const result of results)
    lines.push(
      `${String(result.result)}  ${String(result.check)} - ${subject(pull, result)}: ${String(result.message)}`,
    );
  lines.push("", "Sandbox report: generated test data, not a real insurance record.");
  return { title: "Policy check report", lines };
}
