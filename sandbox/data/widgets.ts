import { TEAM_AGENTS, type TeamAgent } from "./team";

// The agency's links (service-notes, "Widgets"): every seeded and linked pull names one by its
// widget_id and public_alias. Ids are fixed so that pulls, webhooks and tests agree; the quote
// link keeps the id every pull used before the links were told apart.

export type SandboxWidget = {
  widget_id: string;
  intro_title: string | null;
  public_alias: string;
  company_name: string | null;
  success_message: string | null;
  on_success_redirect_url: string | null;
  is_sandbox: boolean;
  brand_color_hex: string | null;
  cobranded_intro_screen: boolean;
  public_url: string;
  logo_src: string | null;
  icon_src: string | null;
  agents: TeamAgent[];
};

export const QUOTE_WIDGET_ID = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f10";
export const RENEWAL_WIDGET_ID = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f11";
export const BUSINESS_WIDGET_ID = "0b5f8a4e-2f4c-4d7e-9b61-3a2c1d0e9f12";

const COMPANY = "Harbor Point Insurance Agency";

export const publicUrlOf = (alias: string) => `https://link.example.com/${encodeURIComponent(alias)}`;
const asset = (widgetId: string, name: string) => `https://link.example.com/widget-static/${widgetId}/${name}.png`;
const agents = (...ids: number[]) => TEAM_AGENTS.filter((_, i) => ids.includes(i));

function widget(widgetId: string, alias: string, fields: Partial<SandboxWidget>): SandboxWidget {
  return {
    widget_id: widgetId,
    intro_title: null,
    public_alias: alias,
    company_name: COMPANY,
    success_message: "Thanks! Your agent will be in touch shortly.",
    on_success_redirect_url: null,
    is_sandbox: true,
    brand_color_hex: "1f4e79",
    cobranded_intro_screen: false,
    public_url: publicUrlOf(alias),
    logo_src: asset(widgetId, "logo"),
    icon_src: asset(widgetId, "icon"),
    agents: [...TEAM_AGENTS],
    ...fields,
  };
}

/** Oldest first: the website quote link, the renewal review sent to clients, and the commercial intake. */
export const SEEDED_WIDGETS: readonly SandboxWidget[] = [
  widget(QUOTE_WIDGET_ID, "get-a-quote", {
    intro_title: "Get a better quote in minutes",
    on_success_redirect_url: "https://www.harborpoint.example.com/thank-you",
  }),
  widget(RENEWAL_WIDGET_ID, "renewal-review", {
    intro_title: "Review your coverage before renewal",
    cobranded_intro_screen: true,
    agents: agents(0, 1, 3),
  }),
  widget(BUSINESS_WIDGET_ID, "business-intake", {
    intro_title: "Share your business policies",
    brand_color_hex: "0b6e4f",
    icon_src: null,
    agents: agents(0, 2),
  }),
];

/** The seeded link a seeded pull of that alias was made on; the quote link for any other alias. */
export function seededWidgetIdFor(alias: string): string {
  return SEEDED_WIDGETS.find((w) => w.public_alias === alias)?.widget_id ?? QUOTE_WIDGET_ID;
}
