import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { failureLine } from "../test/failure-line";

// CI reads a plain closing line "N passed, N failed"; Playwright's own summary is not read. Each
// failure is named on a "failed ›" line just above it, so the tail of a CI log says what broke.
export default class SummaryReporter implements Reporter {
  private outcomes = new Map<string, { status: TestResult["status"]; failure: string }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const failure = `${test.titlePath().filter(Boolean).join(" › ")}: ${failureLine(result.error?.message ?? result.status)}`;
    this.outcomes.set(test.id, { status: result.status, failure });
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const { status, failure } of this.outcomes.values()) {
      if (status === "passed") passed++;
      else if (status === "skipped") skipped++;
      else failures.push(failure);
    }
    // e.g. a web server that never started
    if (result.status !== "passed" && failures.length === 0) failures.push(`the run ended ${result.status}`);
    const named = failures.map((failure) => `failed › e2e › ${failure}\n`).join("");
    process.stdout.write(`\n${named}e2e: ${passed} passed, ${failures.length} failed, ${skipped} skipped\n`);
  }
}
