import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Modules that import each other in a circle load in an order that depends on who is imported
// first: a value read during loading is then undefined in one order and not the other. This
// walks every import (type-only ones too, as `madge --circular` does) of our own folders.

const ROOT = path.resolve(__dirname, "..");
const FOLDERS = ["app", "components", "db", "lib", "sandbox"];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null; // a package
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) => {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) return [];
    const target = resolveImport(file, specifier.text);
    return target ? [target] : [];
  });
}

/** Every cycle's files, as found by a depth-first walk (each cycle reported once). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push(trail.slice(trail.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe("imports between our modules", () => {
  it("form no circle", () => {
    const graph = new Map<string, string[]>();
    for (const folder of FOLDERS)
      for (const file of sourceFiles(path.join(ROOT, folder))) graph.set(file, importsOf(file));
    expect(graph.size).toBeGreaterThan(100); // the walk found the code
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => path.relative(ROOT, file)).join(" → "));
    expect(cycles).toEqual([]);
  });

  it("are walked far enough to see a circle", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findCycles(graph)).toEqual([["a", "b", "c"]]);
  });
});
