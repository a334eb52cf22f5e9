// First-load JavaScript per page, from the build output: the script chunks the browser must
// fetch to show a route the first time. For each route the build's client reference manifest
// (.next/server/app/<route>/page_client-reference-manifest.js) lists `entryJSFiles` for every
// entry (root layout, group layouts, the page); their union, plus the framework's root main
// files from .next/build-manifest.json (`rootMainFiles` and `polyfillFiles`, polyfills being
// nomodule and skipped by modern browsers, so left out), is gzipped file by file (level 9, as
// a CDN would serve them) and summed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export type FirstLoad = { route: string; files: number; rawKb: number; gzipKb: number };

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (entry === "page_client-reference-manifest.js") out.push(full);
  }
  return out;
}

/** The route a manifest belongs to: its folder under server/app, without (groups). */
function routeOf(appDir: string, manifest: string): string {
  const rel = path
    .relative(appDir, path.dirname(manifest))
    .split(path.sep)
    .filter((p) => !/^\(.*\)$/.test(p));
  return `/${rel.join("/")}`;
}

function entryFilesOf(manifestFile: string): string[] {
  const text = readFileSync(manifestFile, "utf8");
  // The file assigns a JSON object to globalThis.__RSC_MANIFEST[route]; read the JSON back.
  const start = text.indexOf("{", text.indexOf("] = "));
  const json = JSON.parse(text.slice(start, text.lastIndexOf("}") + 1)) as { entryJSFiles?: Record<string, string[]> };
  return Object.values(json.entryJSFiles ?? {}).flat();
}

export function firstLoadJs(nextDir = ".next"): FirstLoad[] {
  const appDir = path.join(nextDir, "server", "app");
  if (!existsSync(appDir)) throw new Error(`No build in ${nextDir}: run next build first.`);
  const build = JSON.parse(readFileSync(path.join(nextDir, "build-manifest.json"), "utf8")) as {
    rootMainFiles?: string[];
  };
  const root = build.rootMainFiles ?? [];
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    const known = sizes.get(file);
    if (known) return known;
    const bytes = readFileSync(path.join(nextDir, file.replace(/^\/?_next\//, "")));
    const size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    sizes.set(file, size);
    return size;
  };
  return walk(appDir)
    .map((manifest) => {
      const files = [...new Set([...root, ...entryFilesOf(manifest)])].filter((f) => f.endsWith(".js"));
      const total = files.reduce(
        (acc, f) => {
          const s = sizeOf(f);
          return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip };
        },
        { raw: 0, gzip: 0 },
      );
      return {
        route: routeOf(appDir, manifest),
        files: files.length,
        rawKb: Math.round(total.raw / 102.4) / 10,
        gzipKb: Math.round(total.gzip / 102.4) / 10,
      };
    })
    .sort((a, b) => a.route.localeCompare(b.route));
}

if (process.argv[1]?.endsWith("first-load.ts")) console.table(firstLoadJs());
