import { createHmac } from "node:crypto";

// Delivers webhooks the way the service does: each event to every active registration that
// asked for its type (./webhook-registry.ts), POST JSON signed with that registration's own
// secret, retried on a non-2xx answer or no answer, up to 10 times, waiting (60 + n⁴) s before
// retry n, scaled by `speed` so that tests and demos need not wait hours. Whether the service
// signs a retry anew is not documented, so the sandbox takes the unkind reading: every retry
// carries the signature (and its timestamp) of the first attempt.
// By default the first attempts of one pull's events to one registration go out in the order
// they were raised (retries may then overtake); the `duplicateRate` and `reorder` faults break
// that on purpose, as the service promises neither order nor once-only delivery.

/** Where one event goes: a registration's address and signing secret. */
export type Recipient = { webhook_id: string; url: string; signing_secret: string };

export type DeliveryOptions = {
  /** The active registrations that asked for this event type. */
  recipients: (eventType: string) => Recipient[];
  signatureHeader: string;
  speed: number;
  timeoutMs: number;
  concurrency: number;
  log: (line: string) => void;
};

export const MAX_RETRIES = 10;

export type DeliveryFaults = { duplicateRate: number; reorder: boolean };
/** A serialized body for one recipient, and the pull whose events it is ordered with. */
type Outgoing = { body: string; pullId: string | null; recipient: Recipient };

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
  private faults: DeliveryFaults = { duplicateRate: 0, reorder: false };
  /** Per pull: the promise of the last first attempt queued, so the next waits for it. */
  private chains = new Map<string, Promise<void>>();
  /** Under the `reorder` fault: events held back, then sent newest first. */
  private held: Outgoing[] = [];
  private holdTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: DeliveryOptions) {}

  get isClosed(): boolean {
    return this.closed;
  }

  setFaults(faults: DeliveryFaults): void {
    this.faults = { ...faults };
    if (!faults.reorder) this.flushHeld();
  }

  enqueue(body: Record<string, unknown>): void {
    if (this.closed) return;
    const serialized = JSON.stringify(body);
    const pullId = typeof body.pull_id === "string" ? body.pull_id : null;
    for (const recipient of this.options.recipients(String(body.event_type))) {
      const outgoing = { body: serialized, pullId, recipient: { ...recipient } };
      const copies = this.faults.duplicateRate > 0 && Math.random() < this.faults.duplicateRate ? 2 : 1;
      for (let i = 0; i < copies; i++) {
        this.counts.pending++;
        if (this.faults.reorder) this.hold(outgoing);
        else this.dispatch(outgoing);
      }
    }
  }

  /** Resolves when nothing is pending (delivered or given up). */
  idle(): Promise<void> {
    if (this.counts.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Sends after the previous event of the same pull to the same registration had its first attempt. */
  private dispatch(outgoing: Outgoing): void {
    if (outgoing.pullId === null) {
      void this.attempt(outgoing, 0, null);
      return;
    }
    const key = `${outgoing.recipient.webhook_id} ${outgoing.pullId}`;
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.attempt(outgoing, 0, null)).catch(() => {});
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  /** Collects the events of a short window, then sends them in reverse: a guaranteed reordering. */
  private hold(outgoing: Outgoing): void {
    this.held.push(outgoing);
    if (this.holdTimer) return;
    this.holdTimer = setTimeout(() => this.flushHeld(), Math.max(100, 1000 * this.options.speed));
  }

  private flushHeld(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    for (const outgoing of this.held.splice(0).reverse()) this.dispatch(outgoing);
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

  /** `signature`: the first attempt's, which every retry sends again (null before the first). */
  private async attempt(outgoing: Outgoing, retry: number, signature: string | null): Promise<void> {
    if (this.closed) return;
    const { body, recipient } = outgoing;
    await this.slot();
    const signed = signature ?? sign(recipient.signing_secret, body, Math.floor(Date.now() / 1000));
    let status = 0;
    try {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": "sandbox-webhooks/1.0",
        [this.options.signatureHeader]: signed,
      };
      const response = await fetch(recipient.url, {
        method: "POST",
        body,
        headers,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      status = 0;
    } finally {
      this.release();
    }
    const event = JSON.parse(body) as { event_type?: string; pull_id?: string };
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
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.attempt(outgoing, retry + 1, signed);
      },
      retryDelayMs(retry + 1, this.options.speed),
    );
    this.timers.add(timer);
  }
}
