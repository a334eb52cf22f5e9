import { formatCents, formatLimit, fullName } from "@/lib/format";
import type { DwellingCoverage, Pull, VehicleCoverage } from "@/lib/service/schemas";
import { autosOf, driversOf, type Person } from "./ezlynx-auto";
import { homesOf } from "./ezlynx-home";
import { MARITAL_STATUS, autoEmail, birthDate, clean, homeAddressOf, mapped, splitAddress } from "./ezlynx-values";

// A pull as an AgencyZoom lead (the body of POST /v1/api/leads/create and PUT /v1/api/leads/{id},
// LeadDataRequest in AgencyZoom's documentation): the person, their contact details and address,
// date of birth and marital status, and a note of the coverage they hold today (carriers,
// policies, premiums, limits) with their drivers and vehicles. What AgencyZoom requires that a
// pull never has (pipeline, stage, lead source, country, the user it is assigned to) comes from
// the admin's settings; unset optionals are left out, never sent as null.
//
// Drivers and vehicles go in the note, not in an opportunity's /driver and /vehicle: AgencyZoom
// publishes those paths without their bodies, and an opportunity needs the agency's own carrier
// and product-line ids for every policy; a note carries the same facts to the producer without a
// guess at an undocumented body (docs/handoff.md). Drivers' licence numbers are left out: the
// note is readable by everyone in the agency's AgencyZoom, and quoting asks the client again.

export type AgencyzoomLead = {
  firstname: string;
  lastname?: string;
  email: string;
  phone?: string;
  secondaryEmail?: string;
  secondaryPhone?: string;
  leadSourceId: number;
  assignTo: number;
  country: string;
  pipelineId: number;
  stageId: number;
  notes?: string;
  streetAddress?: string;
  streetAddressLine2?: string;
  city?: string;
  state?: string;
  zip?: string;
  birthday?: string;
  maritalStatus?: string;
};

/** What the admin set for the values a pull never has. Null: not chosen. */
export type AgencyzoomAssumptions = {
  pipelineId: number | null;
  stageId: number | null;
  leadSourceId: number | null;
  country: string;
  /** The AgencyZoom user the lead goes to: the pull owner's mapped user, else the fallback. */
  assignTo: number | null;
};

/** A required value: from the pull, assumed from the settings, or missing (the send is refused). */
export type RequiredValue = {
  field: keyof AgencyzoomLead;
  label: string;
  source: "pull" | "assumed" | "missing";
  value: string | null;
  /** For an assumed or missing value: where it comes from, or what to do. */
  note?: string;
};

export type BuiltLead =
  | { ok: true; lead: AgencyzoomLead; required: RequiredValue[]; drivers: number; vehicles: number }
  | { ok: false; required: RequiredValue[]; missing: RequiredValue[] };

/** AgencyZoom wants a plain phone number; the digits of a North American one are enough. */
function phone(value: string | null | undefined): string | undefined {
  const digits = (value ?? "").replace(/\D/g, "");
  const ten = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return ten.length === 10 ? ten : undefined;
}

const optional = (value: string | null | undefined): string | undefined => clean(value) ?? undefined;

/** The account holder among the drivers: the INSURED, else the one named like the pull. */
function holderOf(pull: Pull, drivers: Person[]): Person | null {
  const insured = drivers.find((d) => d.relationship_to_insured === "INSURED");
  if (insured) return insured;
  const first = clean(pull.first_name)?.toLowerCase();
  const last = clean(pull.last_name)?.toLowerCase();
  return (
    drivers.find((d) => clean(d.first_name)?.toLowerCase() === first && clean(d.last_name)?.toLowerCase() === last) ??
    null
  );
}

function limitWords(perPerson: number | null | undefined, perIncident: number | null | undefined): string | null {
  if (perPerson != null && perIncident != null) return `${formatLimit(perPerson)}/${formatLimit(perIncident)}`;
  if (perIncident != null) return formatLimit(perIncident);
  if (perPerson != null) return formatLimit(perPerson);
  return null;
}

const words = (value: string | null | undefined) => (value ?? "").toLowerCase().replace(/_/g, " ");

/** The note: today's coverage, then the drivers and vehicles, in lines a producer reads. */
export function coverageNote(pull: Pull, today: string): { text: string; drivers: number; vehicles: number } {
  const lines: string[] = [`Sent from Coverdesk on ${today} (linked account ${pull.pull_id}).`];
  const carrier = clean(pull.insurance_provider_friendly_name) ?? clean(pull.insurance_provider_name);
  if (carrier) lines.push(`Linked carrier: ${carrier}.`);
  const policies = pull.policies;
  lines.push("", policies.length === 0 ? "Current coverage: none listed." : "Current coverage:");
  for (const policy of policies) {
    const head = [
      words(policy.policy_type) || "policy",
      clean(policy.carrier_friendly_name) ?? clean(policy.carrier_name),
      clean(policy.carrier_policy_number) ? `no. ${clean(policy.carrier_policy_number)}` : null,
      policy.status ? words(policy.status) : null,
    ]
      .filter(Boolean)
      .join(", ");
    const money = policy.total_premium_cents != null ? `premium ${formatCents(policy.total_premium_cents)}` : null;
    const term = [policy.effective_date?.slice(0, 10), policy.expiry_date?.slice(0, 10)].filter(Boolean).join(" to ");
    lines.push(`- ${head}${money ? `; ${money}` : ""}${term ? `; term ${term}` : ""}`);
    const limits = new Map<string, string>();
    // A policy's coverages are listed per vehicle and per dwelling; the note names each once.
    const coverages: Array<VehicleCoverage | DwellingCoverage> = [
      ...policy.vehicles.flatMap((vehicle) => vehicle.coverages),
      ...policy.dwellings.flatMap((dwelling) => dwelling.coverages),
    ];
    for (const coverage of coverages) {
      const name = words(coverage.friendly_name ?? coverage.name);
      const limit = coverage.is_declined
        ? "declined"
        : limitWords(coverage.per_person_limit_cents, coverage.per_incident_limit_cents);
      const deductible =
        coverage.deductible_cents != null ? `deductible ${formatLimit(coverage.deductible_cents)}` : null;
      const value = [limit, deductible].filter(Boolean).join(", ");
      if (name && value && !limits.has(name)) limits.set(name, value);
    }
    for (const [name, value] of limits) lines.push(`    ${name}: ${value}`);
  }
  const autos = autosOf(pull);
  const drivers = driversOf(pull, autos);
  if (drivers.length > 0) {
    lines.push("", "Drivers:");
    for (const d of drivers) {
      const born = birthDate(d.date_of_birth_str);
      const facts = [
        d.relationship_to_insured ? words(d.relationship_to_insured) : null,
        born ? `born ${born}` : null,
        d.marital_status ? words(d.marital_status) : null,
        d.is_excluded ? "excluded" : null,
      ].filter(Boolean);
      lines.push(`- ${fullName(d)}${facts.length ? ` (${facts.join(", ")})` : ""}`);
    }
  }
  if (autos.length > 0) {
    lines.push("", "Vehicles:");
    for (const { vehicle } of autos) {
      const name = [vehicle.year, clean(vehicle.make), clean(vehicle.model)].filter(Boolean).join(" ") || "a vehicle";
      const vin = clean(vehicle.vin);
      lines.push(`- ${name}${vin ? `, VIN ${vin}` : ""}`);
    }
  }
  const homes = homesOf(pull);
  if (homes.length > 0) {
    lines.push("", "Dwellings:");
    for (const { dwelling } of homes)
      lines.push(`- ${clean(dwelling.address?.full_address) ?? "an address not given"}`);
  }
  return { text: lines.join("\n").slice(0, 20_000), drivers: drivers.length, vehicles: autos.length };
}

/** The lead for a pull, or what it lacks; `required` lists every required value and where it comes from. */
export function buildAgencyzoomLead(pull: Pull, assumptions: AgencyzoomAssumptions, today: string): BuiltLead {
  const autos = autosOf(pull);
  const drivers = driversOf(pull, autos);
  const holder = holderOf(pull, drivers);
  const named =
    pull.policies.flatMap((p) => p.named_insureds).find((n) => n.is_primary_named_insured) ??
    pull.policies.flatMap((p) => p.named_insureds)[0];

  const firstname = clean(pull.first_name, 100) ?? clean(named?.first_name, 100);
  const email = autoEmail(pull.email) ?? autoEmail(pull.account_email) ?? autoEmail(named?.email);
  const fromSettings = (value: number | null, label: string, where: string) =>
    value === null
      ? { source: "missing" as const, value: null, note: `Set the ${label} on Admin → AgencyZoom.` }
      : { source: "assumed" as const, value: String(value), note: where };

  const required: RequiredValue[] = [
    firstname
      ? { field: "firstname", label: "First name", source: "pull", value: firstname }
      : { field: "firstname", label: "First name", source: "missing", value: null, note: "The pull names nobody." },
    email
      ? { field: "email", label: "Email", source: "pull", value: email }
      : {
          field: "email",
          label: "Email",
          source: "missing",
          value: null,
          note: "The pull has no email address; AgencyZoom refuses a lead without one.",
        },
    {
      field: "pipelineId",
      label: "Pipeline",
      ...fromSettings(assumptions.pipelineId, "pipeline", "The admin's setting."),
    },
    { field: "stageId", label: "Stage", ...fromSettings(assumptions.stageId, "stage", "The admin's setting.") },
    {
      field: "leadSourceId",
      label: "Lead source",
      ...fromSettings(assumptions.leadSourceId, "lead source", "The admin's setting."),
    },
    { field: "country", label: "Country", source: "assumed", value: assumptions.country, note: "The admin's setting." },
    {
      field: "assignTo",
      label: "Assigned to",
      ...fromSettings(
        assumptions.assignTo,
        "fallback assignee (or map the pull's owner)",
        "The pull owner's AgencyZoom user, else the admin's fallback.",
      ),
    },
  ];
  const missing = required.filter((r) => r.source === "missing");
  if (missing.length > 0 || !firstname || !email) return { ok: false, required, missing };
  const { pipelineId, stageId, leadSourceId, assignTo } = assumptions;
  if (pipelineId === null || stageId === null || leadSourceId === null || assignTo === null)
    return { ok: false, required, missing };

  const phones = [
    pull.mobile_phone,
    pull.phone,
    pull.home_phone,
    pull.work_phone,
    named?.mobile_phone,
    named?.home_phone,
  ]
    .map(phone)
    .filter((p): p is string => Boolean(p));
  const [firstPhone, secondPhone] = [...new Set(phones)];
  const secondEmail = autoEmail(pull.account_email);
  const address = splitAddress(homeAddressOf(pull));
  const street = address ? clean([address.streetNumber, address.streetName].filter(Boolean).join(" "), 255) : null;
  const zip = address?.zip5 ? (address.zip4 ? `${address.zip5}-${address.zip4}` : address.zip5) : null;
  const note = coverageNote(pull, today);

  const lead: AgencyzoomLead = {
    firstname,
    lastname: optional(clean(pull.last_name, 100) ?? clean(named?.last_name, 100)),
    email,
    phone: firstPhone,
    secondaryEmail: secondEmail && secondEmail.toLowerCase() !== email.toLowerCase() ? secondEmail : undefined,
    secondaryPhone: secondPhone,
    leadSourceId,
    assignTo,
    country: assumptions.country,
    pipelineId,
    stageId,
    notes: note.text,
    streetAddress: street ?? undefined,
    streetAddressLine2: optional(address?.unit),
    city: optional(address?.city),
    state: optional(address?.state),
    zip: zip ?? undefined,
    birthday: birthDate(holder?.date_of_birth_str) ?? undefined,
    maritalStatus: mapped(MARITAL_STATUS, holder?.marital_status) ?? undefined,
  };
  // Unset optionals are left out of the body, not sent as null or undefined.
  for (const key of Object.keys(lead) as Array<keyof AgencyzoomLead>) if (lead[key] === undefined) delete lead[key];
  return { ok: true, lead, required, drivers: note.drivers, vehicles: note.vehicles };
}
