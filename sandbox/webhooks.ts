import { createHmac } from "node:crypto";

// Delivers webhooks the way the service does: POST JSON, signed when a secret is set, retried
// on a non-2xx answer or no answer, up to 10 times, waiting (60 + n⁴) s before retry n,
// scaled by `speed` so that tests and demos need not wait hours.

export type DeliveryOptions = {
  url: string | null;
  secret: string | null;
  signatureHeader: string;
  speed: number;
  timeoutMs: number;
  concurrency: number;
  log: (line: string) => void;
};

export const MAX_RETRIES = 10;

export function retryDelayMs(retry: number, speed: number): number {
  return (60 + retry ** 4) * 1000 * speed;
}

export function sign(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},s=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export class DeliveryQueue {
  readonly counts = { pending: 0, succeeded: 0, failed: 0 };
  private active = 0;
  private waiting: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: DeliveryOptions) {}

  enqueue(body: Record<string, unknown>): void {
    if (!this.options.url || this.closed) return;
    this.counts.pending++;
    void this.attempt(JSON.stringify(body), 0);
  }

  /** Resolves when nothing is pending (delivered or given up). */
  idle(): Promise<void> {
    if (this.counts.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async slot(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  private settle(outcome: "succeeded" | "failed"): void {
    this.counts.pending--;
    this.counts[outcome]++;
    if (this.counts.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async attempt(body: string, retry: number): Promise<void> {
    if (this.closed) return;
    await this.slot();
    let status = 0;
    try {
      const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "sandbox-webhooks/1.0" };
      if (this.options.secret) headers[this.options.signatureHeader] = sign(this.options.secret, body, Math.floor(Date.now() / 1000));
      const response = await fetch(this.options.url as string, { method: "POST", body, headers, signal: AbortSignal.timeout(this.options.timeoutMs) });
      status = response.status;
      await response.body?.cancel();
    } catch {
      status = 0;
    } finally {
      this.release();
    }
    const event = (JSON.parse(body) as { event_type?: string; pull_id?: string });
    if (status >= 200 && status < 300) {
      this.options.log(`webhook ${event.event_type} ${event.pull_id} delivered (${status})`);
      this.settle("succeeded");
      return;
    }
    if (retry >= MAX_RETRIES || this.closed) {
      this.options.log(`webhook ${event.event_type} ${event.pull_id} given up after ${retry + 1} attempts`);
      this.settle("failed");
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(body, retry + 1);
    }, retryDelayMs(retry + 1, this.options.speed));
    this.timers.add(timer);
  }
}
