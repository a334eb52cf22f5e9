import type { Reporter, TestModule } from "vitest/node";
import { failureLine } from "./failure-line";

// CI reads a plain closing line "N passed, N failed"; Vitest's own summary is not read. Each
// failure is named on a "failed ›" line just above it, so the tail of a CI log says what broke.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") passed++;
        else if (result.state === "failed")
          failures.push(`${mod.relativeModuleId} › ${test.fullName}: ${failureLine(result.errors[0]?.message)}`);
        else skipped++;
      }
      // A file that fails outside any test (an import or a beforeAll) is a failure too.
      for (const error of mod.errors()) failures.push(`${mod.relativeModuleId}: ${failureLine(error.message)}`);
    }
    const named = failures.map((failure) => `failed › unit › ${failure}\n`).join("");
    process.stdout.write(`\n${named}unit: ${passed} passed, ${failures.length} failed, ${skipped} skipped\n`);
  }
}
