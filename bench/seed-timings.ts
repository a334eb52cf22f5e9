// Where a seed's time goes, phase by phase: the worker threads' steps (summed over the threads,
// so on two threads they add up to about twice the load's wall time), each table's COPY, each
// index build, each derived table, ANALYZE and VACUUM. The seed's log prints them at its end.

/** Seconds per phase, in the order the phases first took time. */
export class PhaseClock {
  readonly seconds = new Map<string, number>();

  add(phase: string, seconds: number): void {
    this.seconds.set(phase, (this.seconds.get(phase) ?? 0) + seconds);
  }

  /** Adds every phase of `other` (a worker's chunk, in milliseconds) under `prefix`. */
  addMilliseconds(prefix: string, milliseconds: Record<string, number>): void {
    for (const [phase, ms] of Object.entries(milliseconds)) this.add(`${prefix}${phase}`, ms / 1000);
  }

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, (performance.now() - started) / 1000);
    }
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.seconds);
  }
}

/** One line per phase, in the order they first took time: `  copy pulls  41.2 s`. */
export function phaseLines(seconds: Record<string, number>): string[] {
  const width = Math.max(0, ...Object.keys(seconds).map((k) => k.length));
  return Object.entries(seconds).map(([phase, s]) => `  ${phase.padEnd(width)}  ${s.toFixed(1).padStart(7)} s`);
}

/** A step timer for a worker's chunk: milliseconds per step, a step timed as it ends. */
export function stepTimer() {
  const ms: Record<string, number> = {};
  let last = performance.now();
  return {
    ms,
    /** The time since the previous `lap` (or the start) goes to `step`. */
    lap(step: string): void {
      const now = performance.now();
      ms[step] = (ms[step] ?? 0) + (now - last);
      last = now;
    },
  };
}
