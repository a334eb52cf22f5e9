import { address, phoneNumber, type Address, type Person } from "./people";
import { flat, isoDaysFrom, type Random } from "./random";

// The rest of an account's picture: claims and driving records tied to the policy, vehicle,
// dwelling and driver they concern, documents of every type, the agents of record, and the
// answers to the link flow's custom questions (including uploaded files).

type PolicyRef = { policy_id: string; policy_type: string; status: string; vehicles: unknown[]; dwellings: unknown[] };
const idsOf = (rows: unknown[], key: string): string[] =>
  rows.flatMap((r) =>
    r && typeof r === "object" && typeof (r as Record<string, unknown>)[key] === "string"
      ? [(r as Record<string, string>)[key] ?? ""]
      : [],
  );

const AUTO_CLAIMS = [
  "CAR_ACCIDENT",
  "CAR_ACCIDENT",
  "WINDSHIELD_DAMAGE",
  "ANIMAL_COLLISION",
  "THEFT",
  "VANDALISM",
  "EMERGENCY_ROADSIDE_ASSISTANCE",
  "MEDICAL",
  "WEATHER",
];
const HOME_CLAIMS = [
  "WATER_DAMAGE_AND_FREEZING",
  "WIND_AND_HAIL_DAMAGE",
  "FIRE_AND_LIGHTNING_DAMAGE",
  "OTHER_PROPERTY_DAMAGE",
  "PERSONAL_LIABILITY",
  "POWER_OUTAGE_OR_SURGE",
  "THEFT",
  "HURRICANE_DAMAGE",
  "SEWAGE_BACKUP",
  "VANDALISM",
];
const ADJUSTERS = ["Dana Fields", "Marcus Ortiz", "Janet Cole", "Samir Haddad", null];

/** Claims on the account's policies; `incidents` collects the addresses of incident locations. */
export function claims(
  random: Random,
  now: Date,
  policies: PolicyRef[],
  driverIds: string[],
  incidents: Address[],
  force: boolean,
) {
  const list = policies.flatMap((p) => {
    const auto = p.policy_type === "AUTO" || p.policy_type === "MOTORCYCLE";
    const home = p.dwellings.length > 0;
    if (!auto && !home) return [];
    const count = force && p === policies[0] ? 1 : random.chance(0.4) ? random.int(1, 2) : 0;
    return Array.from({ length: count }, () => {
      const open = random.chance(0.25);
      const occurred = random.int(30, 1800);
      let addressId: string | null = null;
      if (auto && random.chance(0.5)) {
        const where = address(random, "INCIDENT_LOCATION");
        incidents.push(where);
        addressId = where.address_id;
      }
      const vehicleIds = idsOf(p.vehicles, "vehicle_id");
      const dwellingIds = idsOf(p.dwellings, "dwelling_id");
      return {
        claim_id: random.uuid(),
        policy_id: p.policy_id,
        dwelling_id: home ? (dwellingIds[0] ?? null) : null,
        vehicle_id: auto && vehicleIds.length > 0 ? random.pick(vehicleIds) : null,
        driver_id: auto && driverIds.length > 0 && random.chance(0.8) ? random.pick(driverIds) : null,
        address_id: addressId,
        carrier_claim_identifier: random.chance(0.9) ? `CLM-${random.digits(8)}` : null,
        date_occurred: isoDaysFrom(now, -occurred),
        date_closed: open ? null : isoDaysFrom(now, -occurred + random.int(5, 28)),
        type: random.chance(0.05) ? null : random.pick(auto ? AUTO_CLAIMS : HOME_CLAIMS),
        status: open ? "OPEN" : "CLOSED",
        payout_cents: open ? null : random.chance(0.15) ? 0 : random.int(300, 48000) * 100 + random.int(0, 99),
        representative_name: random.pick(ADJUSTERS),
        representative_phone: random.chance(0.7) ? `+1800${random.digits(7)}` : null,
        representative_email: random.chance(0.6) ? "claims@carrier.example.com" : null,
      };
    });
  });
  return list;
}

const VIOLATIONS = [
  "MOVING",
  "SPEEDING",
  "SPEEDING",
  "SPEEDING",
  "RECKLESS_DRIVING",
  "DRIVING_WITHOUT_VALID_LICENSE",
  "HIT_AND_RUN",
  "DISTRACTED_DRIVING",
  "DRIVING_UNDER_INFLUENCE",
  "FAILURE_TO_YIELD",
  "TAILGATING",
  "OPEN_CONTAINER_OF_ALCOHOL",
];

export function drivingRecords(random: Random, now: Date, driverIds: string[], force: boolean) {
  return driverIds.flatMap((driverId, i) => {
    const count = force && i === 0 ? 2 : random.chance(0.35) ? random.int(1, 2) : 0;
    return Array.from({ length: count }, (_, n) => {
      const violation = force && i === 0 ? n === 0 : random.chance(0.6);
      return {
        driving_record_id: random.uuid(),
        driver_id: random.chance(0.95) ? driverId : null,
        incident_date: random.chance(0.95) ? isoDaysFrom(now, -random.int(30, 1800)) : null,
        incident_type: violation ? "VIOLATION" : "ACCIDENT",
        // violation_type exists only on violations (spec 2.15).
        violation_type: violation ? random.pick(VIOLATIONS) : null,
        is_at_fault: violation ? null : random.pick([true, false, null]),
      };
    });
  });
}

const TITLES: Record<string, (type: string) => string> = {
  DECLARATIONS: (t) => flat(t, " declarations page"),
  INSURANCE_ID_CARD: () => "Auto ID cards",
  ENDORSEMENT: (t) => flat(t, " policy change endorsement"),
  INSURANCE_APPLICATION: (t) => flat(t, " application"),
  INSURANCE_BINDER: (t) => flat(t, " binder"),
  VERIFICATION_OF_INSURANCE: (t) => flat(t, " evidence of insurance"),
};

const label = (type: string) => type.charAt(0) + type.slice(1).toLowerCase().replace(/_/g, " ");

/** Documents per policy (every type somewhere in a book), with a few account-level ones. */
export function documents(random: Random, now: Date, pullId: string, policies: PolicyRef[], hostile: boolean) {
  const wanted: Array<{ type: string | null; title: string; policyId: string | null }> = [];
  for (const p of policies) {
    const kind = label(p.policy_type);
    const add = (type: string) =>
      wanted.push({ type, title: (TITLES[type] ?? (() => type))(kind), policyId: p.policy_id });
    add("DECLARATIONS");
    if (p.policy_type === "AUTO" || p.policy_type === "COMMERCIAL_AUTO") add("INSURANCE_ID_CARD");
    if (p.status === "PENDING_ACTIVATION" || random.chance(0.08)) add("INSURANCE_BINDER");
    if (p.dwellings.length > 0 && random.chance(0.4)) add("VERIFICATION_OF_INSURANCE");
    if (random.chance(0.2)) add("ENDORSEMENT");
    if (random.chance(0.12)) add("INSURANCE_APPLICATION");
  }
  if (random.chance(0.15)) wanted.push({ type: null, title: "Billing statement", policyId: null });
  if (hostile)
    wanted.push({
      type: "ENDORSEMENT",
      title: `Endorsement "A", <b>bold</b>, O'Brien's copy) Tj ET (\\`,
      policyId: policies[0]?.policy_id ?? null,
    });
  return wanted.map((d) => {
    const documentId = random.uuid();
    return {
      document_id: documentId,
      title: d.title,
      date_added: random.chance(0.9) ? isoDaysFrom(now, -random.int(1, 300)) : null,
      document_type: d.type,
      policy_id: d.policyId,
      mime_type: "application/pdf",
      download_url: flat("/pulls/", pullId, "/documents/", documentId), // made absolute when served
    };
  });
}

const AGENCIES = [
  "Lone Star Insurance Group",
  "Buckeye Coverage Partners",
  "Sunshine State Agency",
  "Front Range Insurance",
  "Great Lakes Risk Advisors",
  null,
];
const AGENT_NAMES = ["Pat Morales", "Chris Dunn", "Renee Okafor", "Luis Batista", null];

/** Agents of record; `offices` collects their addresses (AGENCY_LOCATION). Direct writers often have none. */
export function agents(random: Random, policies: PolicyRef[], state: string, offices: Address[]) {
  if (policies.length === 0 || random.chance(0.2)) return [];
  const groups = policies.length > 2 && random.chance(0.3) ? [policies.slice(0, 1), policies.slice(1)] : [policies];
  return groups.map((group) => {
    const office = random.chance(0.8) ? address(random, "AGENCY_LOCATION", state) : null;
    if (office) offices.push(office);
    let agency = random.pick(AGENCIES);
    const agent = random.pick(AGENT_NAMES);
    if (agency === null && agent === null) agency = "Neighborhood Insurance Agency"; // one of the two is required
    return {
      agent_info_id: random.uuid(),
      address_id: office?.address_id ?? null,
      agency_name: agency,
      agent_full_name: agent,
      phone_number: random.chance(0.9) ? phoneNumber(random) : null,
      email: random.chance(0.7) ? `${(agent ?? "service").split(" ")[0]?.toLowerCase()}@agency.example.com` : null,
      policy_ids: group.map((p) => p.policy_id),
    };
  });
}

function file(random: Random, pullId: string, fieldId: string, name: string) {
  const fileId = random.uuid();
  return {
    name,
    size: random.int(18_000, 2_400_000),
    type: "application/pdf",
    file_id: fileId,
    download_url: flat("/pulls/", pullId, "/answers/", fieldId, "/files/", fileId),
  };
}

/** Answers to the link's custom questions: every field type, some left unanswered. */
export function answers(random: Random, now: Date, pullId: string, holder: Person, withFile: boolean) {
  const id = () => random.uuid();
  const contact = [
    {
      consumer_flow_section_field_id: id(),
      label: "Best time to call",
      meta: { required: false, max_length: 200 },
      type: "TEXT",
      value: random.pick(["Mornings", "After 5pm", "Weekends", "Any time", null]),
    },
    {
      consumer_flow_section_field_id: id(),
      label: "Interested in bundling home and auto?",
      meta: { required: true },
      type: "BOOLEAN",
      value: random.pick([true, false, null]),
    },
    {
      consumer_flow_section_field_id: id(),
      label: "Number of drivers in household",
      meta: { min: 1, max: 10, step: 1 },
      type: "NUMBER",
      value: random.chance(0.85) ? random.int(1, 4) : null,
    },
    {
      consumer_flow_section_field_id: id(),
      label: "When does your current policy renew?",
      meta: { format: "YYYY-MM-DD" },
      type: "DATE",
      value: random.chance(0.7) ? isoDaysFrom(now, random.int(5, 300)).slice(0, 10) : null,
    },
  ];
  const sections: Array<{ consumer_flow_section_id: string; fields: Array<Record<string, unknown>> }> = [
    { consumer_flow_section_id: id(), fields: contact },
  ];
  if (withFile) {
    const fieldId = id();
    const base =
      holder.last
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "upload";
    const files = [file(random, pullId, fieldId, `${base}-declarations.pdf`)];
    if (random.chance(0.5)) files.push(file(random, pullId, fieldId, `${base}-prior-carrier-letter.pdf`));
    sections.push({
      consumer_flow_section_id: id(),
      fields: [
        {
          consumer_flow_section_field_id: fieldId,
          label: "Upload your current declarations page",
          meta: { accept: ["application/pdf"], max_files: 3, max_size_bytes: 10_000_000 },
          type: "FILE_UPLOAD",
          value: files,
        },
        {
          consumer_flow_section_field_id: id(),
          label: "Anything else we should know?",
          meta: { multiline: true },
          type: "TEXT",
          value: random.chance(0.5) ? "We just added a teen driver." : null,
        },
      ],
    });
  }
  return sections;
}
