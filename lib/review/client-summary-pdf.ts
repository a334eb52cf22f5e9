import "server-only";
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { formatCalendarDate, formatCents } from "@/lib/format";
import type { Finding } from "./finding";
import { winAnsi, wrap } from "./pdf-text";

// The client-ready summary of a household's review, one US Letter page drawn with pdf-lib's
// standard fonts (no font files, no native parts): who prepared it and when, the household's
// current cover with what it costs a year, the findings in plain language with what we suggest,
// and what the client chose not to change (the E&O record). Whatever does not fit the page is
// counted, never drawn onto a second one.

export type ClientSummary = {
  agencyName: string;
  householdName: string;
  /** ISO day the summary was prepared. */
  day: string;
  policies: Array<{
    label: string;
    status: string;
    expiry: string | null;
    annualCents: number | null;
    inForce: boolean;
  }>;
  totalAnnualCents: number | null;
  /** Policies in force that state no premium, left out of the total. */
  unpriced: number;
  /** Gaps and points to discuss the client has not declined, most serious first. */
  findings: Finding[];
  /** What the client could not confirm from the data (unknown findings), by title. */
  unknowns: string[];
  declined: Array<{ title: string; note: string; day: string }>;
};

const PAGE: [number, number] = [612, 792];
const MARGIN = 54;
const WIDTH = PAGE[0] - 2 * MARGIN;
const FOOTER = 56;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);
const ACCENT = rgb(0.12, 0.31, 0.47);

type Fonts = { regular: PDFFont; bold: PDFFont; italic: PDFFont };

/** A cursor down the page that refuses what would run into the footer. */
class Column {
  y = PAGE[1] - MARGIN;
  constructor(
    private page: PDFPage,
    private fonts: Fonts,
  ) {}

  room(height: number): boolean {
    return this.y - height >= MARGIN + FOOTER;
  }

  /** The height wrapped text would take, its spacing after included. */
  height(value: string, { size = 10, font = "regular", indent = 0, after = 2 }: TextStyle = {}): number {
    return wrap(value, this.fonts[font], size, WIDTH - indent).length * size * 1.3 + after;
  }

  /** Draws wrapped text if all of it fits; false (and nothing drawn) otherwise. */
  text(value: string, { size = 10, font = "regular", color = INK, indent = 0, after = 2 }: TextStyle = {}): boolean {
    const face = this.fonts[font];
    const lines = wrap(value, face, size, WIDTH - indent);
    const lineHeight = size * 1.3;
    if (!this.room(lines.length * lineHeight)) return false;
    for (const line of lines) {
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font: face, color });
    }
    this.y -= after;
    return true;
  }

  /** A line of two texts: one at the left, one right-aligned. */
  row(left: string, right: string, size = 10): boolean {
    const lineHeight = size * 1.35;
    if (!this.room(lineHeight)) return false;
    this.y -= lineHeight;
    const rightText = winAnsi(right);
    const rightWidth = this.fonts.regular.widthOfTextAtSize(rightText, size);
    const [leftText = ""] = wrap(left, this.fonts.regular, size, WIDTH - rightWidth - 12);
    this.page.drawText(leftText, { x: MARGIN, y: this.y, size, font: this.fonts.regular, color: INK });
    this.page.drawText(rightText, {
      x: MARGIN + WIDTH - rightWidth,
      y: this.y,
      size,
      font: this.fonts.regular,
      color: INK,
    });
    return true;
  }

  rule(gap = 8) {
    this.y -= gap;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: MARGIN + WIDTH, y: this.y },
      thickness: 0.6,
      color: MUTED,
    });
    this.y -= gap;
  }
}

type TextStyle = { size?: number; font?: keyof Fonts; color?: ReturnType<typeof rgb>; indent?: number; after?: number };

const perYear = (cents: number | null) => (cents === null ? "premium not stated" : `${formatCents(cents)} a year`);

function coverSection(column: Column, summary: ClientSummary) {
  column.text("Your current cover", { size: 12, font: "bold", color: ACCENT, after: 4 });
  if (summary.policies.length === 0) {
    column.text("Your carrier shared no policies with us.", { color: MUTED });
    return;
  }
  const shown = summary.policies.slice(0, 8);
  for (const policy of shown) {
    const when = policy.expiry ? `, term ends ${formatCalendarDate(policy.expiry)}` : "";
    column.row(
      `${policy.label} (${policy.status}${when})`,
      policy.inForce ? perYear(policy.annualCents) : "not in force",
    );
  }
  if (summary.policies.length > shown.length)
    column.text(`and ${summary.policies.length - shown.length} more policies.`, { color: MUTED, size: 9 });
  const unpriced =
    summary.unpriced > 0
      ? ` (${summary.unpriced} ${summary.unpriced === 1 ? "policy states" : "policies state"} no premium and ${summary.unpriced === 1 ? "is" : "are"} not counted)`
      : "";
  column.text(
    summary.totalAnnualCents === null
      ? `What you pay a year could not be totalled from your carriers' data${unpriced}.`
      : `In all, about ${formatCents(summary.totalAnnualCents)} a year${unpriced}.`,
    { font: "bold", after: 4 },
  );
}

function findingsSection(column: Column, summary: ClientSummary) {
  column.text("What we found", { size: 12, font: "bold", color: ACCENT, after: 4 });
  if (summary.findings.length === 0) {
    column.text("We found no gaps in what your carriers shared with us.", { after: 4 });
  }
  let drawn = 0;
  for (const finding of summary.findings) {
    // A finding is drawn whole (title, what, suggestion) or not at all, leaving room to say how many did not fit.
    const parts: Array<[string, TextStyle]> = [
      [`${finding.severity === "gap" ? "Gap" : "To discuss"}: ${finding.title}`, { font: "bold", after: 1 }],
      [finding.detail, { size: 9, indent: 10, after: 1 }],
      [`Our suggestion: ${finding.nextStep}`, { size: 9, indent: 10, font: "italic", after: 5 }],
    ];
    const height = parts.reduce((sum, [text, style]) => sum + column.height(text, style), 0);
    if (!column.room(height + 14)) break;
    for (const [text, style] of parts) column.text(text, style);
    drawn++;
  }
  const left = summary.findings.length - drawn;
  if (left > 0)
    column.text(`And ${left} more ${left === 1 ? "point" : "points"}: ask us for the full review.`, { color: MUTED });
  if (summary.unknowns.length > 0)
    column.text(
      `We could not confirm from your carriers' data: ${summary.unknowns.slice(0, 4).join("; ")}${summary.unknowns.length > 4 ? `; and ${summary.unknowns.length - 4} more` : ""}. Your declarations pages will tell.`,
      { size: 9, color: MUTED, after: 4 },
    );
}

function declinedSection(column: Column, summary: ClientSummary) {
  if (summary.declined.length === 0) return;
  if (!column.text("What you chose not to change", { size: 12, font: "bold", color: ACCENT, after: 4 })) return;
  for (const item of summary.declined) {
    const note = item.note ? `: "${item.note.slice(0, 200)}${item.note.length > 200 ? "…" : ""}"` : "";
    if (!column.text(`${item.title} (declined on ${formatCalendarDate(item.day)})${note}`, { size: 9, after: 2 }))
      break;
  }
}

export async function buildClientSummaryPdf(summary: ClientSummary): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
  };
  const page = doc.addPage(PAGE);
  const column = new Column(page, fonts);
  const date = formatCalendarDate(summary.day);

  column.text(summary.agencyName, { size: 18, font: "bold", color: ACCENT, after: 2 });
  column.text(`Insurance review for ${summary.householdName}`, { size: 13, font: "bold", after: 1 });
  column.text(`Prepared on ${date}`, { size: 10, color: MUTED });
  column.rule();
  coverSection(column, summary);
  column.rule(6);
  findingsSection(column, summary);
  declinedSection(column, summary);

  const footer = wrap(
    `This summary reads the policy data your carriers shared as of ${date}. It is not a policy, a quote or a change of cover: your policies' own terms decide what is covered. Questions? Ask ${summary.agencyName}.`,
    fonts.regular,
    8,
    WIDTH,
  );
  footer
    .slice(0, 4)
    .forEach((line, i) =>
      page.drawText(line, { x: MARGIN, y: MARGIN + FOOTER - 18 - i * 10, size: 8, font: fonts.regular, color: MUTED }),
    );

  doc.setTitle(winAnsi(`Insurance review for ${summary.householdName}`));
  doc.setAuthor(winAnsi(summary.agencyName));
  doc.setCreator("Coverdesk");
  doc.setProducer("Coverdesk (pdf-lib)");
  doc.setCreationDate(new Date(`${summary.day}T12:00:00Z`));
  return doc.save();
}
