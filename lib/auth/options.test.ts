import { describe, expect, it } from "vitest";
import { redirectWithinApp, sessionCookie } from "./options";

describe("the session cookie", () => {
  it("is Secure with the __Secure- prefix when the app is served over https", () => {
    const cookie = sessionCookie("https://coverdesk.example.com");
    expect(cookie.useSecureCookies).toBe(true);
    expect(cookie.sessionToken).toEqual({
      name: "__Secure-next-auth.session-token",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: true },
    });
  });

  it("stays usable over plain http (local runs), and is never readable by scripts", () => {
    const cookie = sessionCookie("http://127.0.0.1:3100");
    expect(cookie.useSecureCookies).toBe(false);
    expect(cookie.sessionToken.name).toBe("next-auth.session-token");
    expect(cookie.sessionToken.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: false });
  });
});

describe("next-auth's own redirects", () => {
  const base = "http://127.0.0.1:3100";
  it("follow places on the app, as absolute URLs", () => {
    expect(redirectWithinApp("/login", base)).toBe("http://127.0.0.1:3100/login");
    expect(redirectWithinApp("http://127.0.0.1:3100/pulls?stage=WON", base)).toBe(
      "http://127.0.0.1:3100/pulls?stage=WON",
    );
  });

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "http://127.0.0.1:3101/",
  ])("send %j to the home page", (url) => expect(redirectWithinApp(url, base)).toBe("http://127.0.0.1:3100/"));
});
