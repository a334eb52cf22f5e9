import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What a client component imports, it ships to the browser, and so does everything that
// imports: one constant read from a module that also built a zod schema put zod (about 14 kB
// gzipped) into the pull page's first-load JavaScript, past its 150 kB budget. The server
// checks every input with zod; the browser needs none of it. This walks each "use client"
// module's value imports (type-only imports are erased) through the repository's own modules.

const ROOT = path.resolve(__dirname, "..");
const SERVER_ONLY_LIBRARIES = ["zod", "drizzle-orm", "postgres", "@electric-sql/pglite", "nodemailer", "pdf-lib"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The modules a file imports for their values: `import type` and all-`type` braces are erased. */
function valueImports(code: string): string[] {
  const out: string[] = [];
  for (const match of code.matchAll(/^\s*(?:import|export)\s+([^;]*?)\s+from\s+"([^"]+)"/gms)) {
    const clause = match[1] ?? "";
    const specifier = match[2] ?? "";
    if (/^type\s/.test(clause)) continue;
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (braces && (braces[1] ?? "").split(",").every((part) => !part.trim() || /^type\s/.test(part.trim()))) continue;
    out.push(specifier);
  }
  for (const match of code.matchAll(/^\s*import\s+"([^"]+)"/gm)) out.push(match[1] ?? "");
  return out;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")])
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  return null;
}

/** The server-only libraries `file` reaches through its value imports, with the path there. */
function serverLibrariesReached(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (current: string, trail: string[]) => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const specifier of valueImports(readFileSync(current, "utf8"))) {
      const local = resolveLocal(current, specifier);
      if (local) walk(local, [...trail, path.relative(ROOT, local)]);
      else if (SERVER_ONLY_LIBRARIES.some((lib) => specifier === lib || specifier.startsWith(`${lib}/`)))
        found.push(`${[...trail, specifier].join(" → ")}`);
    }
  };
  walk(file, [path.relative(ROOT, file)]);
  return found;
}

const clientModules = ["components", "app"]
  .flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
  .filter((file) => /^\s*["']use client["']/.test(readFileSync(file, "utf8")));

describe("client components", () => {
  it("are found (the walk below checks something)", () => {
    expect(clientModules.length).toBeGreaterThan(20);
    expect(serverLibrariesReached(path.join(ROOT, "lib/pulls/queries.ts"))).toContainEqual(
      expect.stringContaining("drizzle-orm"),
    );
    expect(
      valueImports(`import type { A } from "zod";\nimport { type B } from "zod";\nimport { z } from "zod";`),
    ).toEqual(["zod"]);
  });

  it("ship none of the server's libraries (zod, drizzle, database drivers, mail, PDF)", () => {
    const reached = clientModules.flatMap(serverLibrariesReached);
    expect(reached).toEqual([]);
  });
});
