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

/**
 * The folders of lib/ as one node each (lib/env.ts and the other top-level files count as a
 * folder of their own): which folder imports which. Tests are left out, as eslint's rooms leave
 * them out: nothing imports a test, so a test cannot close a circle.
 */
export function folderGraph(files: Map<string, string[]>, lib: string): Map<string, string[]> {
  const folderOf = (file: string) =>
    path
      .relative(lib, file)
      .split(path.sep)[0]
      ?.replace(/\.tsx?$/, "") ?? "";
  const inLib = (file: string) => !path.relative(lib, file).startsWith("..");
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    if (!inLib(file) || /\.test\.tsx?$/.test(file)) continue;
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of targets) if (inLib(target) && folderOf(target) !== from) edges.add(folderOf(target));
    graph.set(from, edges);
  }
  return new Map([...graph].map(([folder, edges]) => [folder, [...edges].sort()]));
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

  it("form no circle between the folders of lib/ (the floors hold)", () => {
    const lib = path.join(ROOT, "lib");
    const files = new Map(sourceFiles(lib).map((file) => [file, importsOf(file)] as const));
    const folders = folderGraph(files, lib);
    expect(folders.get("loaders")).toContain("pulls"); // the walk saw the folders' imports
    const cycles = findCycles(folders).map((cycle) => cycle.join(" → "));
    expect(cycles).toEqual([]);
  });

  it("see a circle between two folders that no file circle shows", () => {
    const lib = path.join(ROOT, "lib");
    const at = (file: string) => path.join(lib, file);
    const files = new Map([
      [at("pulls/a.ts"), [at("workflow/b.ts")]],
      [at("workflow/c.ts"), [at("pulls/d.ts")]],
      [at("pulls/a.test.ts"), [at("ingest/e.ts")]],
      [at("ingest/e.ts"), [at("pulls/d.ts"), at("env.ts")]],
    ]);
    const folders = folderGraph(files, lib);
    expect(folders.get("ingest")).toEqual(["env", "pulls"]);
    expect(findCycles(folders)).toEqual([["pulls", "workflow"]]);
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
