import type { Person } from "./people";
import type { Random } from "./random";
import { isoDaysFrom } from "./random";

// The rest of an account's picture: claims, driving records, documents, agents, answers.

export function claims(random: Random, now: Date, policyId: string, kind: "auto" | "home") {
  const count = random.chance(0.45) ? random.int(1, 2) : 0;
  return Array.from({ length: count }, () => {
    const open = random.chance(0.25);
    return {
      claim_id: random.uuid(),
      policy_id: policyId,
      dwelling_id: null,
      vehicle_id: null,
      driver_id: null,
      address_id: null,
      carrier_claim_identifier: `CLM-${random.digits(8)}`,
      date_occurred: isoDaysFrom(now, -random.int(60, 1500)),
      date_closed: open ? null : isoDaysFrom(now, -random.int(5, 50)),
      type: kind === "auto" ? random.pick(["CAR_ACCIDENT", "WINDSHIELD_DAMAGE", "ANIMAL_COLLISION", "THEFT"]) : random.pick(["WATER_DAMAGE_AND_FREEZING", "WIND_AND_HAIL_DAMAGE", "THEFT"]),
      status: open ? "OPEN" : "CLOSED",
      payout_cents: open ? null : random.int(300, 18000) * 100 + random.int(0, 99),
      representative_name: random.pick(["Dana Fields", "Marcus Ortiz", "Janet Cole"]),
      representative_phone: `+1800${random.digits(7)}`,
      representative_email: "claims@example.com",
    };
  });
}

export function drivingRecords(random: Random, now: Date, driverId: string) {
  const count = random.chance(0.4) ? random.int(1, 2) : 0;
  return Array.from({ length: count }, () => {
    const violation = random.chance(0.6);
    return {
      driving_record_id: random.uuid(),
      driver_id: driverId,
      incident_date: isoDaysFrom(now, -random.int(60, 1800)),
      incident_type: violation ? "VIOLATION" : "ACCIDENT",
      violation_type: violation ? random.pick(["SPEEDING", "FAILURE_TO_YIELD", "DISTRACTED_DRIVING"]) : null,
      is_at_fault: violation ? null : random.chance(0.5),
    };
  });
}

export function documents(random: Random, now: Date, pullId: string, policies: Array<{ policy_id: string; policy_type: string }>, hostile: boolean) {
  return policies.flatMap((p) => {
    const docs = [{ type: "DECLARATIONS", title: `${p.policy_type.replace(/_/g, " ")} declarations page` }];
    if (p.policy_type === "AUTO") docs.push({ type: "INSURANCE_ID_CARD", title: "Auto ID cards" });
    if (hostile) docs.push({ type: "ENDORSEMENT", title: `Endorsement "A", <b>bold</b>, O'Brien's copy` });
    return docs.map((d) => {
      const documentId = random.uuid();
      return {
        document_id: documentId,
        title: d.title,
        date_added: isoDaysFrom(now, -random.int(1, 300)),
        document_type: d.type,
        policy_id: p.policy_id,
        mime_type: "application/pdf",
        download_url: `/pulls/${pullId}/documents/${documentId}`, // made absolute when served
      };
    });
  });
}

export function agents(random: Random, policyIds: string[]) {
  return [
    {
      agent_info_id: random.uuid(),
      address_id: null,
      agency_name: random.pick(["Lone Star Insurance Group", "Buckeye Coverage Partners", "Sunshine State Agency"]),
      agent_full_name: random.pick(["Pat Morales", "Chris Dunn", null]),
      phone_number: `+1${random.int(201, 989)}${random.digits(7)}`,
      email: "agent@agency.example.com",
      policy_ids: policyIds,
    },
  ];
}

export function answers(random: Random, pullId: string, holder: Person, withFile: boolean) {
  const sectionId = random.uuid();
  const fields: Array<Record<string, unknown>> = [
    { consumer_flow_section_field_id: random.uuid(), label: "Best time to call", meta: { required: false }, type: "TEXT", value: random.pick(["Mornings", "After 5pm", "Weekends"]) },
    { consumer_flow_section_field_id: random.uuid(), label: "Interested in bundling home and auto?", meta: {}, type: "BOOLEAN", value: random.chance(0.6) },
    { consumer_flow_section_field_id: random.uuid(), label: "Number of drivers in household", meta: { min: 1 }, type: "NUMBER", value: random.int(1, 4) },
  ];
  if (withFile) {
    const fieldId = random.uuid();
    const fileId = random.uuid();
    fields.push({
      consumer_flow_section_field_id: fieldId,
      label: "Upload your current declarations page",
      meta: { accept: ["application/pdf"] },
      type: "FILE_UPLOAD",
      value: [{ name: `${holder.last.toLowerCase()}-declarations.pdf`, size: 48213, type: "application/pdf", file_id: fileId, download_url: `/pulls/${pullId}/answers/${fieldId}/files/${fileId}` }],
    });
  }
  return [{ consumer_flow_section_id: sectionId, fields }];
}
