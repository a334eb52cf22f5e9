import { describe, expect, it } from "vitest";
import * as S from "@/lib/service/schemas";
import { buildPullForLine, generatePulls, type Line, type SandboxPull } from "./data/pulls";
import { createRandom } from "./data/random";

// The seeded book: deterministic, shaped exactly like the spec's resources (every field, no
// other; only the spec's enum values), internally consistent, and varied enough that every
// line of business and every feature the app must render appears in a book of 36.

const NOW = new Date("2026-06-15T00:00:00Z");
type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const obj = (value: unknown): Row | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Row) : null;

/** A book's parts, flattened, so each assertion reads as one line. */
function index(pulls: SandboxPull[]) {
  const policies = pulls.flatMap((p) => rows(p.policies));
  const vehicles = policies.flatMap((p) => rows(p.vehicles));
  const dwellings = policies.flatMap((p) => rows(p.dwellings));
  const fields = pulls.flatMap((p) => rows(p.answers).flatMap((s) => rows(s.fields)));
  return {
    policies,
    vehicles,
    vehicleCoverages: vehicles.flatMap((v) => rows(v.coverages)),
    vehicleDrivers: vehicles.flatMap((v) => rows(v.drivers)),
    dwellings,
    dwellingCoverages: dwellings.flatMap((d) => rows(d.coverages)),
    mortgagees: dwellings.flatMap((d) => rows(d.mortgagees)),
    propertyData: dwellings.map((d) => obj(d.property_data)).filter((d): d is Row => d !== null),
    drivers: pulls.flatMap((p) => rows(p.drivers)),
    addresses: pulls.flatMap((p) => rows(p.addresses)),
    claims: pulls.flatMap((p) => rows(p.claims)),
    records: pulls.flatMap((p) => rows(p.driving_records)),
    lossEvents: pulls.flatMap((p) => rows(p.loss_events)),
    documents: pulls.flatMap((p) => rows(p.documents)),
    agents: pulls.flatMap((p) => rows(p.agents)),
    fields,
    uploads: fields.filter((f) => f.type === "FILE_UPLOAD").flatMap((f) => rows(f.value)),
    cnis: policies.flatMap((p) => rows(p.commercial_named_insureds)),
  };
}

const book = generatePulls(42, 36, NOW);
const all = index(book);
const inList = (list: readonly string[], value: unknown) => value === null || list.includes(String(value));

describe("seeded book", () => {
  it("is deterministic for a seed, and each seed gives another book", () => {
    expect(JSON.stringify(generatePulls(42, 36, NOW))).toBe(JSON.stringify(book));
    expect(JSON.stringify(generatePulls(43, 36, NOW))).not.toBe(JSON.stringify(book));
    const one = (line: Line) => JSON.stringify(buildPullForLine(createRandom(9), NOW, line, { withFileUpload: true }));
    expect(one("commercial")).toBe(one("commercial"));
  });

  it("keeps its fixed points: mostly successes, the hostile pull 7, and the last three", () => {
    const topLevelSuccess = book.filter((p) => p.status === "SUCCESS" && p.parent_pull_id === null);
    expect(topLevelSuccess.length).toBeGreaterThanOrEqual(30);
    const hostile = book[7];
    expect(String(hostile?.first_name)).toContain("<script>");
    expect(String(hostile?.last_name)).toMatch(/["']/);
    expect(rows(hostile?.documents).some((d) => /["'<]/.test(String(d.title)))).toBe(true);
    expect(book[33]?.parent_pull_id).toBe(book[0]?.pull_id);
    expect(book[34]?.status).toBe("NOT_AUTHENTICATED");
    expect(book[35]?.status).toBe("PROVIDER_ERROR");
  });

  it("gives every pull its own moment, so newest-first paging is unambiguous", () => {
    for (const seed of [3, 7, 42]) {
      const times = generatePulls(seed, 200, NOW).map((p) => p.created_at);
      expect(new Set(times).size).toBe(times.length);
      for (const t of times) expect(t <= NOW.toISOString()).toBe(true);
    }
  });

  it("gives every pull, policy and record its own id", () => {
    for (const [name, list, key] of [
      ["pulls", book, "pull_id"],
      ["policies", all.policies, "policy_id"],
      ["vehicles", all.vehicles, "vehicle_id"],
      ["documents", all.documents, "document_id"],
      ["claims", all.claims, "claim_id"],
      ["drivers", all.drivers, "driver_id"],
    ] as const) {
      const ids = (list as Row[]).map((r) => r[key]);
      expect(new Set(ids).size, name).toBe(ids.length);
      for (const id of ids)
        expect(String(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe("shape as the spec publishes it", () => {
  /** Exactly the schema's fields: none missing, none invented. */
  function expectFields(name: string, list: Row[], schema: { shape: Record<string, unknown> }) {
    const want = Object.keys(schema.shape).sort();
    for (const row of list) expect(Object.keys(row).sort(), name).toEqual(want);
  }

  it("has every field of each resource and no other", () => {
    expectFields("Pull", book, S.pullSchema);
    expectFields("Policy", all.policies, S.policySchema);
    expectFields("Vehicle", all.vehicles, S.vehicleSchema);
    expectFields("VehicleCoverage", all.vehicleCoverages, S.vehicleCoverageSchema);
    expectFields("VehicleDriver", all.vehicleDrivers, S.vehicleDriverSchema);
    expectFields("Driver", all.drivers, S.driverSchema);
    expectFields("Dwelling", all.dwellings, S.dwellingSchema);
    expectFields("DwellingCoverage", all.dwellingCoverages, S.dwellingCoverageSchema);
    expectFields("Mortgagee", all.mortgagees, S.mortgageeSchema);
    expectFields("PropertyData", all.propertyData, S.propertyDataSchema);
    expectFields("Address", all.addresses, S.addressSchema);
    expectFields("Claim", all.claims, S.claimSchema);
    expectFields("DrivingRecord", all.records, S.drivingRecordSchema);
    expectFields("LossEvent", all.lossEvents, S.lossEventSchema);
    expectFields("Document", all.documents, S.documentSchema);
    expectFields("AgentInfo", all.agents, S.agentInfoSchema);
    expectFields("AnswerField", all.fields, S.answerFieldSchema);
    expectFields("FileUpload", all.uploads, S.fileUploadSchema);
    expectFields("CommercialNamedInsured", all.cnis, S.commercialNamedInsuredSchema);
    expectFields(
      "NamedInsured",
      all.policies.flatMap((p) => rows(p.named_insureds)),
      S.namedInsuredSchema,
    );
    const funnels = book.map((p) => obj(p.funnel)).filter((f): f is Row => f !== null);
    expectFields("PullFunnel", funnels, S.pullFunnelSchema);
    expectFields(
      "PullAssignee",
      funnels.map((f) => obj(f.assignee)).filter((a): a is Row => a !== null),
      S.pullAssigneeSchema,
    );
  });

  it("parses with the app's tolerant schemas without a single reported problem", () => {
    for (const pull of generatePulls(7, 72, NOW)) {
      const parsed = S.parseTolerant(S.pullSchema, pull);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.problems, pull.pull_id).toEqual([]);
    }
  });

  it("uses only the spec's enum values", () => {
    const checks: Array<[string, Row[], string, readonly string[]]> = [
      ["Pull.status", book, "status", S.PULL_STATUSES],
      ["Pull.type", book, "type", S.PULL_TYPES],
      ["Pull.policy_check_status", book, "policy_check_status", S.POLICY_CHECK_STATUSES],
      ["Policy.policy_type", all.policies, "policy_type", S.POLICY_TYPES],
      ["Policy.status", all.policies, "status", S.POLICY_STATUSES],
      ["Policy.form_of_business", all.policies, "form_of_business", S.FORMS_OF_BUSINESS],
      ["Policy.payment_frequency", all.policies, "payment_frequency", S.PAYMENT_FREQUENCIES],
      ["Vehicle.ownership_type", all.vehicles, "ownership_type", S.OWNERSHIP_TYPES],
      ["VehicleCoverage.friendly_name", all.vehicleCoverages, "friendly_name", S.VEHICLE_COVERAGE_FRIENDLY_NAMES],
      [
        "VehicleCoverage.pip_deductible_applicability",
        all.vehicleCoverages,
        "pip_deductible_applicability",
        S.PIP_DEDUCTIBLE_APPLICABILITIES,
      ],
      ["DwellingCoverage.name", all.dwellingCoverages, "name", S.DWELLING_COVERAGE_NAMES],
      ["DwellingCoverage.friendly_name", all.dwellingCoverages, "friendly_name", S.DWELLING_COVERAGE_FRIENDLY_NAMES],
      ["Dwelling.loss_settlement_type", all.dwellings, "loss_settlement_type", S.LOSS_SETTLEMENT_TYPES],
      ["Driver.gender", [...all.drivers, ...all.vehicleDrivers], "gender", S.GENDERS],
      ["Driver.marital_status", [...all.drivers, ...all.vehicleDrivers], "marital_status", S.MARITAL_STATUSES],
      ["Driver.education", [...all.drivers, ...all.vehicleDrivers], "education", S.EDUCATION_LEVELS],
      [
        "Driver.relationship_to_insured",
        [...all.drivers, ...all.vehicleDrivers],
        "relationship_to_insured",
        S.RELATIONSHIPS_TO_INSURED,
      ],
      ["Address.address_nature", all.addresses, "address_nature", S.ADDRESS_NATURES],
      ["Claim.type", all.claims, "type", S.CLAIM_TYPES],
      ["Claim.status", all.claims, "status", S.CLAIM_STATUSES],
      ["DrivingRecord.incident_type", all.records, "incident_type", S.INCIDENT_TYPES],
      ["DrivingRecord.violation_type", all.records, "violation_type", S.VIOLATION_TYPES],
      ["LossEvent.type", all.lossEvents, "type", S.LOSS_EVENT_TYPES],
      ["Document.document_type", all.documents, "document_type", S.DOCUMENT_TYPES],
      ["Document.mime_type", all.documents, "mime_type", S.DOCUMENT_MIME_TYPES],
      ["AnswerField.type", all.fields, "type", S.ANSWER_FIELD_TYPES],
      ["CommercialNamedInsured.form_of_business", all.cnis, "form_of_business", S.FORMS_OF_BUSINESS],
    ];
    const property: Array<[string, readonly string[]]> = [
      ["class", S.PROPERTY_CLASSES],
      ["sub_type", S.PROPERTY_SUB_TYPES],
      ["construction_type", S.CONSTRUCTION_TYPES],
      ["wall_type", S.WALL_TYPES],
      ["foundation_type", S.FOUNDATION_TYPES],
      ["frame_type", S.FRAME_TYPES],
      ["roof_cover", S.ROOF_COVERS],
      ["cooling_type", S.COOLING_TYPES],
      ["heating_type", S.HEATING_TYPES],
      ["heating_fuel", S.HEATING_FUELS],
      ["energy_type", S.ENERGY_TYPES],
      ["sewer_type", S.SEWER_TYPES],
      ["building_shape", S.BUILDING_SHAPES],
      ["construction_quality", S.CONSTRUCTION_QUALITIES],
      ["fireplace_type", S.FIREPLACE_TYPES],
      ["pool_type", S.POOL_TYPES],
      ["garage_type", S.GARAGE_TYPES],
    ];
    // The spec's roof_shape list has a placeholder where one value stands; ours avoid that spot.
    const roofShapes = S.ROOF_SHAPES.filter((s) => s !== "CANOPY");
    for (const [label, list, key, allowed] of [
      ...checks,
      ...property.map(
        ([key, allowed]) =>
          [`PropertyData.${key}`, all.propertyData, key, allowed] as [string, Row[], string, readonly string[]],
      ),
      ["PropertyData.roof_shape", all.propertyData, "roof_shape", roofShapes] as [
        string,
        Row[],
        string,
        readonly string[],
      ],
    ]) {
      const bad = list.map((r) => r[key]).filter((v) => !inList(allowed, v));
      expect(bad, label).toEqual([]);
    }
    for (const p of book) for (const t of rows(p.skipped_product_types)) expect(S.PRODUCT_TYPES).toContain(t);
    for (const p of book) if (p.funnel) expect(S.FUNNEL_STAGES).toContain(obj(p.funnel)?.stage);
    for (const v of all.vehicles) for (const use of rows(v.uses)) expect(S.VEHICLE_USES).toContain(use);
  });

  it("keeps status and type combinations the spec allows, and the dwelling coverage label of each name", () => {
    for (const p of book) {
      if (p.status === "PULLING_DATA" || p.status === "GETTING_CONSUMERS") expect(p.type).toBe("PULLING_DATA");
      if (
        ["SERVICING", "WAITING_FOR_CONSUMER_CONFIRMATION", "SUBMITTING_CONFIRMATION", "VALIDATION_ERROR"].includes(
          p.status,
        )
      )
        expect(p.type).toBe("SERVICING");
    }
    for (const c of all.dwellingCoverages) expect(c.friendly_name).toBe(S.dwellingCoverageFriendlyName(String(c.name)));
    for (const c of all.dwellingCoverages)
      for (const key of ["per_incident_limit_percent", "deductible_percent"])
        if (c[key] !== null) expect(String(c[key])).toMatch(/^\d{1,3}\.\d{3}$/);
    for (const a of all.addresses) if (a.prefix !== null) expect(String(a.prefix).length).toBeLessThanOrEqual(2);
    for (const d of all.dwellings) {
      const ext = d.extended_replacement_cost_percent;
      if (typeof ext === "number") {
        expect(ext).toBeGreaterThanOrEqual(0);
        expect(ext).toBeLessThanOrEqual(100);
        expect(d.total_replacement_cost_cents).toBe(Math.round(Number(d.replacement_cost_cents) * (1 + ext / 100)));
      }
    }
    for (const r of all.records) expect(r.violation_type === null).toBe(r.incident_type !== "VIOLATION");
    for (const a of all.agents) expect(a.agency_name !== null || a.agent_full_name !== null).toBe(true);
  });
});

describe("consistency inside each pull", () => {
  it("points every reference at a record of the same pull", () => {
    for (const p of book) {
      const policies = rows(p.policies);
      const policyIds = new Set(policies.map((x) => x.policy_id));
      const driverIds = new Set(rows(p.drivers).map((x) => x.driver_id));
      const addressIds = new Set(rows(p.addresses).map((x) => x.address_id));
      const vehicleIds = new Set(policies.flatMap((x) => rows(x.vehicles)).map((v) => v.vehicle_id));
      const dwellingIds = new Set(policies.flatMap((x) => rows(x.dwellings)).map((d) => d.dwelling_id));
      expect(new Set(rows(p.addresses).map((a) => a.address_id)).size).toBe(rows(p.addresses).length);
      for (const c of rows(p.claims)) {
        expect(policyIds.has(c.policy_id)).toBe(true);
        if (c.vehicle_id !== null) expect(vehicleIds.has(c.vehicle_id)).toBe(true);
        if (c.dwelling_id !== null) expect(dwellingIds.has(c.dwelling_id)).toBe(true);
        if (c.driver_id !== null) expect(driverIds.has(c.driver_id)).toBe(true);
        if (c.address_id !== null) expect(addressIds.has(c.address_id)).toBe(true);
      }
      for (const r of rows(p.driving_records)) if (r.driver_id !== null) expect(driverIds.has(r.driver_id)).toBe(true);
      for (const e of rows(p.loss_events)) expect(policyIds.has(e.policy_id)).toBe(true);
      for (const d of rows(p.documents)) {
        if (d.policy_id !== null) expect(policyIds.has(d.policy_id)).toBe(true);
        expect(d.download_url).toBe(`/pulls/${p.pull_id}/documents/${d.document_id}`);
      }
      for (const a of rows(p.agents)) {
        for (const id of rows(a.policy_ids)) expect(policyIds.has(id)).toBe(true);
        if (a.address_id !== null)
          expect(rows(p.addresses).find((x) => x.address_id === a.address_id)?.address_nature).toBe("AGENCY_LOCATION");
      }
      for (const policy of policies) {
        const groups = new Set(rows(policy.premium_groups).map((g) => g.premium_group_id));
        const locations = new Set(rows(policy.locations).map((l) => l.location_id));
        for (const v of rows(policy.vehicles)) {
          for (const c of rows(v.coverages))
            if (c.premium_group_id !== null) expect(groups.has(c.premium_group_id)).toBe(true);
          for (const d of rows(v.drivers)) expect(driverIds.has(d.driver_id)).toBe(true);
          if (v.lien_holder !== null) expect(obj(v.lien_holder_address)?.address_nature).toBe("LIENHOLDER");
        }
        for (const n of rows(policy.commercial_named_insureds))
          if (n.location_id !== null) expect(locations.has(n.location_id)).toBe(true);
      }
      for (const f of rows(p.answers).flatMap((s) => rows(s.fields))) {
        for (const file of f.type === "FILE_UPLOAD" ? rows(f.value) : [])
          expect(file.download_url).toBe(
            `/pulls/${p.pull_id}/answers/${f.consumer_flow_section_field_id}/files/${file.file_id}`,
          );
      }
    }
  });

  it("sets each no_* flag exactly when its list is empty", () => {
    const lists = {
      no_policies: "policies",
      no_drivers: "drivers",
      no_documents: "documents",
      no_claims: "claims",
      no_loss_events: "loss_events",
    } as const;
    for (const p of book)
      for (const [flag, list] of Object.entries(lists))
        expect(p[flag], `${p.pull_id} ${flag}`).toBe(rows(p[list]).length === 0);
    for (const flag of Object.keys(lists)) {
      expect(
        book.some((p) => p.status === "SUCCESS" && p[flag] === true),
        `${flag} true`,
      ).toBe(true);
      expect(
        book.some((p) => p[flag] === false),
        `${flag} false`,
      ).toBe(true);
    }
  });
});

describe("variety in a book of 36", () => {
  it("covers every line of business and every pull type", () => {
    const types = new Set(all.policies.map((p) => p.policy_type));
    for (const type of [
      "AUTO",
      "HOMEOWNERS",
      "CONDO",
      "RENTERS",
      "LANDLORD",
      "FLOOD",
      "UMBRELLA",
      "BUSINESS_OWNERS",
      "GENERAL_LIABILITY",
      "WORKERS_COMPENSATION",
      "COMMERCIAL_AUTO",
      "TERM_LIFE",
      "WHOLE_LIFE",
    ])
      expect(types.has(type), type).toBe(true);
    const pullTypes = new Set(book.map((p) => p.type));
    for (const type of S.PULL_TYPES) expect(pullTypes.has(type), type).toBe(true);
    expect(book.filter((p) => p.type === "PULLING_DATA").length).toBeGreaterThan(book.length / 2);
  });

  it("shows the auto features: limits, deductibles, unlimited, declined, stacked, excluded drivers, liens", () => {
    const c = all.vehicleCoverages;
    expect(
      c.some((x) => typeof x.per_person_limit_cents === "number" && typeof x.per_incident_limit_cents === "number"),
    ).toBe(true);
    expect(c.some((x) => typeof x.deductible_cents === "number" && Number(x.deductible_cents) > 0)).toBe(true);
    expect(c.some((x) => x.per_person_unlimited === true && x.per_incident_unlimited === true)).toBe(true);
    expect(c.some((x) => x.is_declined === true && x.premium_cents === null)).toBe(true);
    expect(c.some((x) => x.is_stacked === true) && c.some((x) => x.is_stacked === false)).toBe(true);
    expect(c.some((x) => typeof x.per_day_limit_cents === "number" && typeof x.max_days === "number")).toBe(true);
    expect(c.some((x) => typeof x.per_mile_premium_tenth_of_cents === "number")).toBe(true);
    expect(c.some((x) => x.premium_group_id !== null)).toBe(true);
    expect(all.vehicleDrivers.some((d) => d.is_excluded === true)).toBe(true);
    expect(all.vehicles.some((v) => typeof v.lien_holder === "string" && obj(v.lien_holder_address) !== null)).toBe(
      true,
    );
    expect(
      all.vehicles.some((v) => v.ownership_type === "LEASE") ||
        all.vehicles.some((v) => v.ownership_type === "FINANCE"),
    ).toBe(true);
  });

  it("shows the home features: cents and percent, months, declined, mortgagees, property data", () => {
    const c = all.dwellingCoverages;
    expect(c.some((x) => typeof x.per_incident_limit_cents === "number")).toBe(true);
    expect(c.some((x) => x.per_incident_limit_percent !== null)).toBe(true);
    expect(c.some((x) => x.per_incident_limit_percent !== null && x.per_incident_limit_cents !== null)).toBe(true);
    expect(c.some((x) => x.deductible_percent !== null)).toBe(true);
    expect(c.some((x) => typeof x.per_incident_limit_months === "number")).toBe(true);
    expect(c.some((x) => x.is_declined === true)).toBe(true);
    expect(
      all.mortgagees.some(
        (m) =>
          typeof m.name === "string" &&
          typeof m.loan_number === "string" &&
          obj(m.address)?.address_nature === "MORTGAGEE",
      ),
    ).toBe(true);
    expect(all.dwellings.some((d) => rows(d.mortgagees).length > 1)).toBe(true);
    expect(all.dwellings.some((d) => d.mortgagee_name !== null && obj(d.mortgagee_address) !== null)).toBe(true);
    expect(all.propertyData.length).toBeGreaterThan(5);
    // Each PropertyData field is filled somewhere in the book.
    for (const key of Object.keys(S.propertyDataFields))
      expect(
        all.propertyData.some((d) => d[key] !== null && d[key] !== undefined),
        key,
      ).toBe(true);
  });

  it("shows the commercial features: named insureds, locations, loss events, workers' comp premiums", () => {
    expect(all.cnis.some((n) => n.gl_code && n.naics_code && n.fein && typeof n.number_of_employees === "number")).toBe(
      true,
    );
    expect(all.policies.some((p) => rows(p.locations).length > 0)).toBe(true);
    expect(all.lossEvents.length).toBeGreaterThan(0);
    expect(
      all.lossEvents.some((e) => e.is_claim_open === true) ||
        all.lossEvents.some((e) => Number(e.amount_reserved_cents) > 0),
    ).toBe(true);
    const wc = all.policies.find((p) => p.policy_type === "WORKERS_COMPENSATION");
    expect(typeof wc?.total_estimated_annual_premium_cents).toBe("number");
    expect(typeof wc?.total_minimum_premium_cents).toBe("number");
    expect(all.policies.some((p) => p.policy_type === "COMMERCIAL_AUTO" && rows(p.vehicles).length > 0)).toBe(true);
  });

  it("shows claims, driving records, documents of every type, agents and answers of every kind", () => {
    expect(new Set(all.claims.map((c) => c.status))).toEqual(new Set(["OPEN", "CLOSED"]));
    expect(all.claims.some((c) => c.vehicle_id !== null) && all.claims.some((c) => c.dwelling_id !== null)).toBe(true);
    expect(
      all.records.some((r) => r.incident_type === "VIOLATION") &&
        all.records.some((r) => r.incident_type === "ACCIDENT"),
    ).toBe(true);
    for (const type of S.DOCUMENT_TYPES)
      expect(
        all.documents.some((d) => d.document_type === type),
        type,
      ).toBe(true);
    expect(all.agents.some((a) => a.address_id !== null)).toBe(true);
    for (const type of S.ANSWER_FIELD_TYPES)
      expect(
        all.fields.some((f) => f.type === type),
        type,
      ).toBe(true);
    expect(all.fields.some((f) => f.value === null)).toBe(true);
    expect(all.uploads.length).toBeGreaterThan(0);
    expect(book.some((p) => Array.isArray(p.skipped_product_types) && p.skipped_product_types.length > 0)).toBe(true);
    expect(new Set(book.map((p) => obj(p.funnel)?.stage).filter(Boolean)).size).toBeGreaterThan(1);
    expect(new Set(all.policies.map((p) => p.status)).size).toBeGreaterThan(2);
  });
});

describe("size", () => {
  // How fast it is lives in `npm run bench:sandbox`: timings in tests fail on a busy machine.
  it("generates a large book with every pull id distinct", () => {
    const pulls = generatePulls(42, 10_000, NOW);
    expect(pulls).toHaveLength(10_000);
    expect(new Set(pulls.map((p) => p.pull_id)).size).toBe(10_000);
  });
});
