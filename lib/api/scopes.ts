// What an API key may do, named once: the admin page's checkboxes, `npm run api-key`, the guard
// of each route under /api/v1 and the OpenAPI document all read this list.

export const API_SCOPES = ["pulls:read", "pulls:write", "webhooks:write", "handoffs:write"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  "pulls:read": "Read linked accounts (list and detail)",
  "pulls:write": "Change a linked account's stage, premium or owner",
  "webhooks:write": "Manage outgoing webhook endpoints",
  "handoffs:write": "Hand households to an agency management system",
};
