import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LegalHold } from "@/lib/privacy/legal-holds";
import { DEFAULT_RETENTION_SCHEDULE } from "@/lib/privacy/retention-kinds";
import { DisposalPreview } from "./disposal-preview";
import { LegalHoldPanel } from "./legal-hold-panel";
import { RetentionScheduleForm } from "./retention-schedule-form";

// The retention page's and the pull page's parts as the server sends them: the dry run in
// sentences, the schedule's form with each kind's current choice, and a hold's reason shown to
// admins only, as text.

const idle = async () => ({ status: "idle" as const });
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the dry run", () => {
  it("says how many of each would be disposed of on the run's day, and Kept for a kind set to Keep", () => {
    const html = renderToStaticMarkup(
      createElement(DisposalPreview, {
        due: {
          accounts: { PROSPECTS: 412, LOST_DEALS: 1, WON_CLIENTS: 0 },
          pulls: { PROSPECTS: 530, LOST_DEALS: 2, WON_CLIENTS: 0 },
          inboxBodies: 1_204,
          auditRows: 0,
        },
        schedule: { ...DEFAULT_RETENTION_SCHEDULE, AUDIT_TRAIL: null },
        runAt: new Date("2026-03-01T03:30:00Z"),
      }),
    );
    const words = text(html);
    expect(words).toContain("412 accounts would be disposed of on Mar 1, 2026");
    expect(words).toContain("1 account would be disposed of on Mar 1, 2026");
    expect(words).toContain("1,204 inbox bodies would be disposed of");
    expect(words).toContain("Kept: nothing is disposed of");
    expect(words).toContain("530");
  });
});

describe("the schedule's form", () => {
  it("checks Keep or the months each kind has, and warns past two years for prospects", () => {
    const html = renderToStaticMarkup(
      createElement(RetentionScheduleForm, {
        schedule: { ...DEFAULT_RETENTION_SCHEDULE, PROSPECTS: null, LOST_DEALS: 36 },
        action: idle,
      }),
    );
    expect(html).toMatch(/name="PROSPECTS.mode" checked="" value="KEEP"/);
    expect(html).toMatch(/name="AUDIT_TRAIL.mode" checked="" value="MONTHS"/);
    expect(html).toMatch(/name="AUDIT_TRAIL.months"[^>]*value="84"/);
    expect(html).toContain('data-testid="retention-PROSPECTS-long"');
    expect(html).toContain('data-testid="retention-LOST_DEALS-long"');
    expect(html).not.toContain('data-testid="retention-WON_CLIENTS-long"');
    expect(text(html)).toContain("never less than five years");
  });
});

describe("the legal hold panel", () => {
  const hold: LegalHold = {
    id: 7,
    pullId: null,
    accountKey: "acct-1",
    scope: "ACCOUNT",
    reason: `Subpoena <script>alert(1)</script>`,
    placedAt: new Date("2026-02-01T10:00:00Z"),
    placedByName: "Avery Admin",
  };
  const render = (canManage: boolean, holds: LegalHold[]) =>
    renderToStaticMarkup(
      createElement(LegalHoldPanel, {
        pullId: "11111111-2222-4333-8444-000000000001",
        panel: { holds, canManage },
        place: idle,
        lift: idle,
      }),
    );

  it("shows admins why and by whom, as text, with Lift and a form to hold this pull too", () => {
    const html = render(true, [hold]);
    expect(text(html)).toContain("The whole account is on hold");
    expect(html).toContain("Subpoena &lt;script&gt;");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("Avery Admin");
    expect(html).toMatch(/disabled="" name="scope" value="ACCOUNT"/);
    expect(text(html)).toContain("Lift");
  });

  it("tells others only that the pull is held, and shows nothing when it is not", () => {
    const html = render(false, [hold]);
    expect(text(html)).toContain("it will not be disposed of");
    expect(html).not.toContain("Subpoena");
    expect(html).not.toContain("Avery Admin");
    expect(html).not.toContain("Place the hold");
    expect(render(false, [])).toBe("");
  });
});
