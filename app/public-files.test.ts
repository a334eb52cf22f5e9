import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import nextConfig from "../next.config";
import { metadata } from "./layout";

// The icons, manifest and robots.txt that browsers and crawlers ask for by name are in public/,
// and the root layout's metadata points only at files that exist there.

const publicFile = (path: string) => new URL(`../public${path}`, import.meta.url);
const urlsOf = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(urlsOf)
      : value instanceof URL
        ? [value.pathname]
        : value && typeof value === "object"
          ? "url" in value
            ? urlsOf(value.url)
            : Object.values(value).flatMap(urlsOf)
          : [];

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): [number, number] {
  const bytes = readFileSync(publicFile(path));
  expect(bytes.subarray(1, 4).toString("ascii"), path).toBe("PNG");
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe("public/", () => {
  it("holds the favicon, the icons and the manifest", () => {
    for (const path of ["/favicon.ico", "/icon.svg", "/apple-touch-icon.png", "/site.webmanifest", "/robots.txt"])
      expect(existsSync(publicFile(path)), path).toBe(true);
    expect(pngSize("/apple-touch-icon.png")).toEqual([180, 180]);
    expect(readFileSync(publicFile("/favicon.ico")).readUInt16LE(2), "an ICO header").toBe(1);
    expect(readFileSync(publicFile("/icon.svg"), "utf8")).toContain("<svg");
  });

  it("has a manifest whose icons exist at the sizes it claims", () => {
    const manifest = JSON.parse(readFileSync(publicFile("/site.webmanifest"), "utf8")) as {
      name: string;
      start_url: string;
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    expect(manifest.name).toBe("Coverdesk");
    expect(manifest.start_url).toBe("/");
    for (const icon of manifest.icons) {
      expect(existsSync(publicFile(icon.src)), icon.src).toBe(true);
      if (icon.type === "image/png") expect(pngSize(icon.src).join("x")).toBe(icon.sizes);
    }
  });

  it("keeps every crawler out with robots.txt", () => {
    const lines = readFileSync(publicFile("/robots.txt"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    expect(lines).toEqual(["User-agent: *", "Disallow: /"]);
  });

  it("is what the root layout's metadata points at", () => {
    const referenced = [...urlsOf(metadata.icons), ...urlsOf(metadata.manifest)];
    expect(referenced).toEqual(
      expect.arrayContaining(["/favicon.ico", "/icon.svg", "/apple-touch-icon.png", "/site.webmanifest"]),
    );
    for (const path of referenced) expect(existsSync(publicFile(path)), path).toBe(true);
    expect(metadata.robots).toMatchObject({ index: false, follow: false });
  });

  it("is backed by X-Robots-Tag: noindex on every response Next.js serves", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const everywhere = rules.find((rule) => rule.source === "/:path*");
    expect(everywhere?.headers).toContainEqual({ key: "X-Robots-Tag", value: "noindex, nofollow" });
  });
});
