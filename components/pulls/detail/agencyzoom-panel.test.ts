import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IDLE, type FormAction } from "@/lib/core/form-state";
import { agencyzoomPanelOf } from "@/lib/handoff/agencyzoom-panel";
import { NO_AGENCYZOOM_SETTINGS } from "@/lib/handoff/agencyzoom-settings";
import { pullOf } from "@/test/review-pulls";
import { AgencyzoomPanel } from "./agencyzoom-panel";

// The pull page's "Send to AgencyZoom" panel as the server draws it: before a send, what
// AgencyZoom needs and where each value comes from (a missing one keeps the button disabled);
// after, who sent it when, the link to the lead, and "Send again".

const send: FormAction = async () => IDLE;
const OWNER = "00000000-0000-4000-8000-000000000001";
const settings = {
  ...NO_AGENCYZOOM_SETTINGS,
  pipelineId: 5001,
  stageId: 50011,
  leadSourceId: 7001,
  fallbackAssigneeId: 3002,
  userMap: { [OWNER]: 3001 },
};
const draw = (panel: ReturnType<typeof agencyzoomPanelOf>) =>
  renderToStaticMarkup(createElement(AgencyzoomPanel, { pullId: "p1", panel, send }));

describe("the Send to AgencyZoom panel", () => {
  it("lists what AgencyZoom needs, marks what is assumed, names the assignee, and offers the send", () => {
    const pull = pullOf([], { email: "dana@example.com" });
    const html = draw(agencyzoomPanelOf(pull, OWNER, { settings, sent: null }, true, "2026-11-28"));
    expect(html).toContain("dana@example.com");
    expect(html).toMatch(/Pipeline<\/td><td[^>]*>5001<\/td><td[^>]*><span[^>]*>Assumed/);
    expect(html).toContain("user 3001, the pull owner&#x27;s AgencyZoom user");
    expect(html).toMatch(/<button type="submit"[^>]*>Send to AgencyZoom<\/button>/);
    expect(html).not.toMatch(/<button[^>]*disabled=""/);
  });

  it("keeps the button disabled while a required value is missing, and says which", () => {
    const pull = pullOf([]); // no email anywhere
    const html = draw(agencyzoomPanelOf(pull, null, { settings, sent: null }, true, "2026-11-28"));
    expect(html).toMatch(/Email<\/td><td[^>]*>—<\/td><td[^>]*><span[^>]*>Missing/);
    expect(html).toContain("the admin&#x27;s fallback user");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Send to AgencyZoom<\/button>/);
  });

  it("after a send, says when and by whom, links to the lead and offers to send again", () => {
    const pull = pullOf([], { email: "dana@example.com" });
    const sent = {
      id: "h1",
      pullId: pull.pull_id,
      target: "agencyzoom",
      externalId: "1000001",
      opportunityId: null,
      url: "https://app.agencyzoom.com/lead/index?id=1000001",
      sentBy: null,
      sentByName: "Morgan Manager",
      firstSentAt: new Date("2026-11-27T10:00:00Z"),
      sentAt: new Date("2026-11-28T10:00:00Z"),
      sendCount: 2,
    };
    const html = draw(agencyzoomPanelOf(pull, OWNER, { settings, sent }, true, "2026-11-28"));
    expect(html).toMatch(/Sent .* by Morgan Manager \(2 sends\)/);
    expect(html).toContain('href="https://app.agencyzoom.com/lead/index?id=1000001"');
    expect(html).toContain("Send again (updates the lead)");
  });

  it("says AgencyZoom is not connected, and offers nothing, when it is not configured", () => {
    const html = draw(agencyzoomPanelOf(pullOf([]), null, { settings, sent: null }, false, "2026-11-28"));
    expect(html).toContain("AGENCYZOOM_BASE_URL is unset");
    expect(html).not.toContain("<button");
  });
});
