// Where the e2e sandbox listens and how to call it: the values playwright.config.ts gives it.
export const SANDBOX_ORIGIN = `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT ?? 4110}`;
export const SERVICE_BASE = `${SANDBOX_ORIGIN}/api/v1.0.0`;
export const TEAM_ID = "5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01";
export const TEAM_BASE = `${SERVICE_BASE}/teams/${TEAM_ID}`;
export const SANDBOX_CONTROL = `${SANDBOX_ORIGIN}/_sandbox`;
export const SERVICE_AUTH = `Basic ${Buffer.from("coverdesk-e2e-client:coverdesk-e2e-secret").toString("base64")}`;
