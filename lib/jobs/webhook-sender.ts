import "server-only";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver";
import { webhookUrlPolicy } from "@/lib/webhooks/endpoints";

// The in-process sender of outgoing webhooks: every 2 seconds it sends what the outbox holds
// due (lib/webhooks/deliver.ts), so a new event goes out at once and a failed delivery's second
// attempt about 5 seconds later, which a job run each minute could not keep. Several instances
// may each run one: deliveries are claimed with FOR UPDATE SKIP LOCKED. The webhook-delivery job
// (./catalog.ts) sends once a minute as well, in case this loop is not running.

const EVERY_MS = 2_000;
/** The log says what was sent at most this often: a backlog is worked in batches every 2 seconds. */
const LOG_EVERY_MS = 60_000;

type Counts = { delivered: number; retrying: number; failed: number };
type Sender = {
  running: boolean;
  timer: NodeJS.Timeout | null;
  cycle: Promise<void> | null;
  unlogged: Counts;
  loggedAt: number;
};
const global = globalThis as unknown as { __coverdeskWebhookSender?: Sender };

export function startWebhookSender(): void {
  if (global.__coverdeskWebhookSender?.running) return; // dev reloads must not start a second one
  const sender: Sender = {
    running: true,
    timer: null,
    cycle: null,
    unlogged: { delivered: 0, retrying: 0, failed: 0 },
    loggedAt: 0,
  };
  global.__coverdeskWebhookSender = sender;
  const policy = webhookUrlPolicy(env().nodeEnv);
  const tick = () => {
    sender.cycle = (async () => {
      try {
        const sent = await deliverDueWebhooks(await getDb(), { policy });
        const { unlogged } = sender;
        unlogged.delivered += sent.delivered;
        unlogged.retrying += sent.retrying;
        unlogged.failed += sent.failed;
        if (
          unlogged.delivered + unlogged.retrying + unlogged.failed > 0 &&
          Date.now() - sender.loggedAt >= LOG_EVERY_MS
        ) {
          console.info(
            `[webhooks] ${unlogged.delivered} delivered, ${unlogged.retrying} to retry, ${unlogged.failed} given up`,
          );
          sender.unlogged = { delivered: 0, retrying: 0, failed: 0 };
          sender.loggedAt = Date.now();
        }
      } catch (error) {
        console.error("[webhooks] sending failed:", error instanceof Error ? error.message : error);
      }
    })();
    void sender.cycle.then(() => {
      if (sender.running) sender.timer = setTimeout(tick, EVERY_MS);
    });
  };
  sender.timer = setTimeout(tick, EVERY_MS);
}

/** Stops the sender after its current cycle (a claimed delivery not finished is sent again after its lease). */
export async function stopWebhookSender(graceMs: number): Promise<void> {
  const sender = global.__coverdeskWebhookSender;
  if (!sender?.running) return;
  sender.running = false;
  if (sender.timer) clearTimeout(sender.timer);
  if (sender.cycle) await Promise.race([sender.cycle, new Promise((resolve) => setTimeout(resolve, graceMs))]);
}
