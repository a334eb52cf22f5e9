import type { z } from "zod";
import { agentSchema } from "./agents";
import { bool, lenientArray, looseResource, requiredArray, requiredId, text } from "./tolerant";

// The agency's links (service-notes, "Widgets"): a pull's widget_id points at one. Only the
// id is required; everything else reads as null when absent or odd.

export const widgetSchema = looseResource({
  widget_id: requiredId,
  intro_title: text,
  public_alias: text,
  company_name: text,
  success_message: text,
  on_success_redirect_url: text,
  is_sandbox: bool,
  /** RRGGBB without the `#`. */
  brand_color_hex: text,
  cobranded_intro_screen: bool,
  public_url: text,
  logo_src: text,
  icon_src: text,
  agents: lenientArray(agentSchema, "agent"),
});
export type Widget = z.output<typeof widgetSchema>;

/** GET /widgets */
export const widgetListResponseSchema = looseResource({
  success: bool,
  widgets: requiredArray(widgetSchema, "widget"),
});
export type WidgetListResponse = z.output<typeof widgetListResponseSchema>;

/** GET, POST and PATCH /widgets[/:id]: the link as it now stands. */
export const widgetResponseSchema = looseResource({ success: bool, widget: widgetSchema });
export type WidgetResponse = z.output<typeof widgetResponseSchema>;
