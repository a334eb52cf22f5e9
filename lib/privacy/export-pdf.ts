import "server-only";
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatAddress, formatCalendarDate, formatCents, fullName, humanize } from "@/lib/format";
import { winAnsi, wrap } from "@/lib/review/pdf-text";
import type { Pull } from "@/lib/service/schemas";
import type { ConsumerExport } from "./export-shape";

// The readable copy of a consumer's data (an access request): US Letter pages drawn with
// pdf-lib's standard fonts, in the client summary's manner, but as many pages as it takes,
// since nothing may be left out. For each linked account: who, how to reach them, where,
// drivers, policies with their vehicles and homes, documents, and what the agency recorded.
// The JSON export beside it is the complete, machine-readable copy.

const PAGE: [number, number] = [612, 792];
const MARGIN = 54;
const WIDTH = PAGE[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);
const ACCENT = rgb(0.12, 0.31, 0.47);

type Fonts = { regular: PDFFont; bold: PDFFont };
type Style = { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number; after?: number };

/** A cursor down the pages: a line that would run off the page starts a new one. */
class Writer {
  private page: PDFPage;
  private y = PAGE[1] - MARGIN;
  constructor(
    private doc: PDFDocument,
    private fonts: Fonts,
  ) {
    this.page = doc.addPage(PAGE);
  }

  text(value: string, { size = 10, bold = false, color = INK, indent = 0, after = 2 }: Style = {}) {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const lineHeight = size * 1.3;
    for (const line of wrap(value, font, size, WIDTH - indent)) {
      if (this.y - lineHeight < MARGIN) {
        this.page = this.doc.addPage(PAGE);
        this.y = PAGE[1] - MARGIN;
      }
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color });
    }
    this.y -= after;
  }

  heading(value: string) {
    this.y -= 8;
    this.text(value, { size: 13, bold: true, color: ACCENT, after: 4 });
  }

  sub(value: string) {
    this.y -= 4;
    this.text(value, { size: 11, bold: true, after: 2 });
  }

  item(value: string, indent = 12) {
    this.text(`- ${value}`, { indent });
  }
}

const orDash = (value: string | null | undefined) => (value && value.trim() ? value : "—");

function drawPull(w: Writer, entry: ConsumerExport["pulls"][number], pull: Pull | null) {
  const name = pull ? fullName(pull) : "—";
  w.heading(`Linked account: ${name}`);
  w.text(`Reference ${entry.pullId}`, { size: 8, color: MUTED });
  if (!pull) {
    w.text("This account's data could not be read as the service describes it; the JSON copy holds it as received.");
    return;
  }
  w.text(
    `Carrier: ${orDash(pull.insurance_provider_name)}. Linked on ${formatCalendarDate(pull.created_at?.slice(0, 10))}. Status: ${humanize(pull.status)}.`,
  );
  w.sub("How to reach you");
  for (const [label, value] of [
    ["Email", pull.email],
    ["Account email", pull.account_email],
    ["Phone", pull.phone],
    ["Mobile phone", pull.mobile_phone],
    ["Home phone", pull.home_phone],
    ["Work phone", pull.work_phone],
  ] as const)
    if (value) w.item(`${label}: ${value}`);
  if (pull.addresses.length > 0) {
    w.sub("Addresses");
    for (const address of pull.addresses) w.item(formatAddress(address));
  }
  if (pull.drivers.length > 0) {
    w.sub("Drivers");
    for (const driver of pull.drivers)
      w.item(
        `${fullName(driver)}; born ${orDash(driver.date_of_birth_str)}; licence ${orDash(driver.drivers_license)} ${driver.drivers_license_state ?? ""}`.trim(),
      );
  }
  if (pull.policies.length > 0) {
    w.sub("Policies");
    for (const policy of pull.policies) {
      w.item(
        `${humanize(policy.policy_type)} with ${orDash(policy.carrier_name)}, number ${orDash(policy.carrier_policy_number)}, ${humanize(policy.status)}; ${formatCalendarDate(policy.effective_date)} to ${formatCalendarDate(policy.expiry_date)}; premium ${formatCents(policy.total_premium_cents)}`,
      );
      for (const vehicle of policy.vehicles)
        w.item(
          `Vehicle: ${[vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(" ") || "—"}, VIN ${orDash(vehicle.vin)}`,
          24,
        );
      for (const dwelling of policy.dwellings) w.item(`Home: ${formatAddress(dwelling.address)}`, 24);
    }
  }
  if (pull.documents.length > 0) {
    w.sub("Documents");
    for (const document of pull.documents)
      w.item(`${orDash(document.title)} (${formatCalendarDate(document.date_added)})`);
  }
  w.sub("What the agency recorded");
  w.item(
    `Stage: ${humanize(entry.agency.stage)}${entry.agency.assignedTo ? `, handled by ${entry.agency.assignedTo}` : ""}${entry.agency.archived ? ", archived" : ""}.`,
  );
  if (entry.agency.lostReason) w.item(`Why it was lost: ${entry.agency.lostReason}`);
  const counted: [string, unknown[]][] = [
    ["earlier versions of this data", entry.earlierVersions],
    ["coverage decisions", entry.findingDecisions],
    ["look-ups of public and driver records", entry.enrichmentAnswers],
    ["alerts", entry.alerts],
    ["renewal dates", entry.xDates],
    ["changes requested at the carrier", entry.servicingRequests],
    ["changes the service reported", entry.monitoringEvents],
  ];
  for (const [label, rows] of counted) if (rows.length > 0) w.item(`${rows.length} ${label} (listed in the JSON copy)`);
  if (entry.history.length > 0) {
    w.sub("History");
    for (const h of entry.history) w.item(`${h.at.slice(0, 10)}: ${humanize(h.action)}`);
  }
}

export async function buildConsumerExportPdf(data: ConsumerExport, parsed: (Pull | null)[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const w = new Writer(doc, fonts);
  w.text("Your data held by the agency", { size: 18, bold: true, color: ACCENT, after: 4 });
  w.text(
    `Prepared ${formatCalendarDate(data.generatedAt.slice(0, 10))} in answer to your request received ${formatCalendarDate(data.request.receivedOn)}. It lists the insurance accounts you linked through the agency's link and what the agency recorded about them. A complete copy in a machine-readable form (JSON) is available on request.`,
    { color: MUTED, after: 6 },
  );
  if (data.pulls.length === 0) w.text("The agency holds no data on you.");
  data.pulls.forEach((entry, index) => drawPull(w, entry, parsed[index] ?? null));
  doc.setTitle(winAnsi("Your data held by the agency"));
  doc.setProducer("Coverdesk (pdf-lib)");
  doc.setCreationDate(new Date(data.generatedAt));
  return doc.save();
}
