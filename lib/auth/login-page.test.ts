import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/lib/env";

// The sign-in page's one-click demo logins: offered in development and the tests, never in
// production (where the demo users and their published password are refused anyway).

let production = false;
// Production as lib/env.test.ts writes it; development is the zero-setup default.
const PRODUCTION = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://coverdesk@db.internal:5432/coverdesk",
  SERVICE_BASE_URL: "https://service.example.com/api/v1.0.0",
  SERVICE_TEAM_ID: "team-1",
  SERVICE_CLIENT_ID: "id",
  SERVICE_CLIENT_SECRET: "secret",
  SERVICE_WEBHOOK_SECRET: "whsec_from_the_service",
  NEXTAUTH_SECRET: "k7Qe2xVt9Lr4Nw8Zp1Hs6Dj3Fm5Gb0Ca",
  NEXTAUTH_URL: "https://coverdesk.example.com",
};
const settings = (nodeEnv: "production" | "development") =>
  parseEnv(nodeEnv === "production" ? PRODUCTION : { NODE_ENV: "development" });
vi.mock("@/lib/env", async (original) => ({
  ...(await original<typeof import("@/lib/env")>()),
  env: () => settings(production ? "production" : "development"),
}));
vi.mock("./session", () => ({ getSessionUser: async () => null }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ replace: () => {}, refresh: () => {} }) }));
vi.mock("next-auth/react", () => ({ signIn: async () => ({ ok: true }) }));

const { loadLoginPage } = await import("./login-page");
const { LoginForm } = await import("@/components/auth/login-form");

beforeEach(() => {
  production = false;
});

describe("one-click demo logins", () => {
  it("are offered in development: the three demo users, each a button that names them", async () => {
    const { demo } = await loadLoginPage({});
    expect(demo?.users.map((u) => u.email)).toEqual(["admin@example.com", "manager@example.com", "agent@example.com"]);
    const html = renderToStaticMarkup(createElement(LoginForm, { callbackUrl: "/pulls", demo }));
    expect(html).toContain('data-testid="demo-logins"');
    expect(html.match(/<button type="button"/g)).toHaveLength(3);
    expect(html).toContain("Morgan Manager");
  });

  it("are never offered in production, and the form then has its one button", async () => {
    production = true;
    const { demo } = await loadLoginPage({});
    expect(demo).toBeNull();
    const html = renderToStaticMarkup(createElement(LoginForm, { callbackUrl: "/pulls", demo }));
    expect(html).not.toContain("demo-logins");
    expect(html).not.toContain("coverdesk-demo");
    expect(html.match(/<button/g)).toHaveLength(1);
  });
});
