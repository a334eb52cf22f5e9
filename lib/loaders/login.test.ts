import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/lib/env";
import { PRODUCTION_ENV } from "@/test/production-env";

// The sign-in page's one-click demo logins: offered in development and the tests, never in
// production (where the demo users and their published password are refused anyway).

let production = false;
const settings = (nodeEnv: "production" | "development") =>
  parseEnv(nodeEnv === "production" ? PRODUCTION_ENV : { NODE_ENV: "development" });
vi.mock("@/lib/env", async (original) => ({
  ...(await original<typeof import("@/lib/env")>()),
  env: () => settings(production ? "production" : "development"),
}));
vi.mock("@/lib/auth/session", () => ({ getSessionUser: async () => null }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ replace: () => {}, refresh: () => {} }) }));
vi.mock("next-auth/react", () => ({ signIn: async () => ({ ok: true }) }));

const { loadLoginPage } = await import("./login");
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
