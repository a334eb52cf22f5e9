import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

const APP = "https://coverdesk.example.com";
const follow = (value: unknown) => safeRedirectPath(value, APP);

describe("after sign-in, only places on the app itself are followed", () => {
  it("keeps same-origin paths, with their query and fragment", () => {
    expect(follow("/pulls")).toBe("/pulls");
    expect(follow("/pulls?stage=WON&q=smith#top")).toBe("/pulls?stage=WON&q=smith#top");
    expect(follow("/pulls/0b6f3f1e-8d4c-4c1a-9e2f-5a7b9c1d3e5f")).toBe("/pulls/0b6f3f1e-8d4c-4c1a-9e2f-5a7b9c1d3e5f");
    expect(follow("https://coverdesk.example.com/reports?from=2026-01-01")).toBe("/reports?from=2026-01-01");
    expect(follow("/a/../my")).toBe("/my");
    expect(follow(["/my", "https://evil.example"])).toBe("/my");
  });

  // Each of these reads, in some browser, as another site (or runs script).
  it.each([
    ["a tab after the slash (%09)", "/\t/evil.example"],
    ["a newline (%0A)", "/\n/evil.example"],
    ["a carriage return (%0D)", "/\r/evil.example"],
    ["a NUL", "/\u0000/evil.example"],
    ["DEL", "/\u007f/evil.example"],
    ["a leading tab", "\t//evil.example"],
    ["a backslash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["slash backslash", "/\\/evil.example"],
    ["a scheme-relative URL", "//evil.example"],
    ["a scheme-relative URL with a path", "//evil.example/pulls"],
    ["three slashes", "///evil.example"],
    ["an encoded slash once decoded", decodeURIComponent("/%2F/evil.example")],
    ["a dot segment that leaves two slashes", "/.//evil.example"],
    ["dot segments that leave two slashes", "/x/..//evil.example"],
    ["another origin", "https://evil.example"],
    ["another origin's path", "https://evil.example/pulls"],
    ["our host over another scheme", "http://coverdesk.example.com/pulls"],
    ["our host on another port", "https://coverdesk.example.com:8443/pulls"],
    ["credentials before another host", "https://coverdesk.example.com@evil.example/"],
    ["a look-alike subdomain", "https://coverdesk.example.com.evil.example/"],
    ["javascript:", "javascript:alert(document.cookie)"],
    ["JavaScript: with a tab", "java\tscript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["a bare scheme", "https:evil.example"],
    ["an ideographic full stop in the host", "https://evil\u3002example/"],
    ["a full-width host", "https://ｅｖｉｌ.example/"],
    ["an IDN host", "https://cоverdesk.example.com/"], // Cyrillic "о"
    ["a right-to-left override", "https://\u202eelpmaxe.live/"],
    ["the empty string", ""],
    ["a number", 42],
    ["nothing", undefined],
    ["an object", { toString: () => "/pulls" }],
  ])("refuses %s", (_name, value) => {
    expect(follow(value)).toBe("/");
  });

  it("keeps odd but local paths on the app (full-width slashes are not slashes)", () => {
    const path = follow("／／evil.example");
    expect(path.startsWith("/")).toBe(true);
    expect(path.startsWith("//")).toBe(false);
    expect(follow("/%2F/evil.example")).toBe("/%2F/evil.example"); // still encoded: a path segment, not a host
  });

  it("answers '/' when the app's own origin cannot be read", () => {
    expect(safeRedirectPath("/pulls", "not a url")).toBe("/");
  });

  it("never returns something a browser would read as another host, whatever the input", () => {
    const pieces = [
      "/",
      "\\",
      "//",
      "\t",
      "\n",
      "\r",
      "%2F",
      "%5C",
      ".",
      "..",
      "@",
      ":",
      "evil.example",
      "javascript:",
      "https:",
      "?",
      "#",
      "\u3002",
      "／",
    ];
    for (let i = 0; i < 3000; i++) {
      let value = "";
      for (let j = 0, n = 1 + (i % 6); j < n; j++) value += pieces[(i * 7 + j * 13 + (i >> j)) % pieces.length];
      const path = follow(value);
      expect(path.startsWith("/"), value).toBe(true);
      expect(new URL(path, APP).origin, value).toBe(APP);
      expect(path.startsWith("//"), value).toBe(false);
    }
  });
});
