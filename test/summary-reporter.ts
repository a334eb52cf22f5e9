import type { Reporter, TestModule } from "vitest/node";

// CI reads a plain closing line "N passed, N failed"; Vitest's own summary is not read.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A file that fails outside any test (an import or a beforeAll) is a failure too.
      failed += mod.errors().length;
    }
    process.stdout.write(`\nunit: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
