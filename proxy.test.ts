import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

// The proxy is what puts the security headers on pages and route handlers, so it must run for
// every path but Next's own build assets (next.config.ts secures those): a page, a route or a
// reconnect token that happens to end in ".png" or ".txt" is not a static file.

const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://localhost:3000${path}` });

describe("the proxy's matcher", () => {
  it("runs for pages, routes and tokens whatever their last extension", () => {
    for (const path of [
      "/",
      "/pulls",
      "/pulls/report.png",
      "/robots.txt",
      "/icon.svg",
      "/favicon-32.ico",
      "/connect/abc.def.png",
      "/api/pulls/6a1f2e3d-4c5b-4a69-8788-99aabbccddee/documents/scan.png",
      "/api/health.txt",
      "/_next/staticky.txt",
    ]) {
      expect(matches(path), path).toBe(true);
    }
  });

  it("leaves only Next's build assets and the favicon to next.config.ts", () => {
    for (const path of ["/_next/static/chunks/app.js", "/_next/static/media/logo.png", "/_next/image", "/favicon.ico"])
      expect(matches(path), path).toBe(false);
  });
});

describe("responses to paths ending in a file extension", () => {
  const headersOf = async (path: string) => (await proxy(new NextRequest(`http://localhost:3000${path}`))).headers;

  it("carry the security headers, signed in or not", async () => {
    for (const path of [
      "/pulls/report.png",
      "/connect/abc.def.txt",
      "/api/pulls/6a1f2e3d-4c5b-4a69-8788-99aabbccddee/documents/scan.png",
    ]) {
      const headers = await headersOf(path);
      expect(headers.get("x-frame-options"), path).toBe("DENY");
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
    }
    expect((await headersOf("/connect/abc.def.txt")).get("referrer-policy")).toBe("no-referrer");
  });
});

describe("the calendar feed, without a session", () => {
  it("goes through to its route handler, which checks the token in its address", async () => {
    const response = await proxy(new NextRequest("http://localhost:3000/api/calendar/abc.ics"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("the public API, without a session", () => {
  it("goes through to its route handlers, which check the API key themselves", async () => {
    for (const path of [
      "/api/v1/openapi.json",
      "/api/v1/pulls",
      "/api/v1/pulls/5b1f0000-0000-4000-8000-000000000000",
    ]) {
      const response = await proxy(
        new NextRequest(`http://localhost:3000${path}`, { headers: { authorization: "Bearer x" } }),
      );
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
      expect(response.status, path).not.toBe(401);
    }
  });

  it("does not open the app's own routes that merely start alike", async () => {
    expect((await proxy(new NextRequest("http://localhost:3000/api/v10/pulls"))).status).toBe(401);
  });
});

describe("public/'s files, without a session", () => {
  const PUBLIC_FILES = [
    "/robots.txt",
    "/favicon.ico",
    "/icon.svg",
    "/apple-touch-icon.png",
    "/site.webmanifest",
    "/icon-192.png",
    "/icon-512.png",
  ];
  const answer = (path: string) => proxy(new NextRequest(`http://localhost:3000${path}`));

  it("go through to the file, with the security headers", async () => {
    for (const path of PUBLIC_FILES) {
      const response = await answer(path);
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
      expect(response.headers.get("location"), path).toBeNull();
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("are named exactly: a page or token ending like one still needs a session", async () => {
    for (const path of [
      "/pulls/robots.txt",
      "/connect-icon.svg",
      "/apple-touch-icon.png/x",
      "/site.webmanifest.json",
      "/icon-1920.png",
    ]) {
      const response = await answer(path);
      expect(response.status, path).toBe(307);
      expect(response.headers.get("location"), path).toContain("/login");
    }
  });
});
