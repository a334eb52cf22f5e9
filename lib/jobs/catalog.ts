import "server-only";
import type { Db } from "@/db/types";
import type { Env } from "@/lib/env";
import { runDailyDigest } from "@/lib/alerts/digest";
import { deleteExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { isSyncDue, runSync, startSyncRun } from "@/lib/ingest/sync";
import { reconcileMonitoredFlags } from "@/lib/monitoring/monitored-flag";
import { timeRefreshes } from "@/lib/monitoring/refresh-timing";
import { storeRefreshForecast } from "@/lib/monitoring/stored-forecast";
import { backfillHouseholdGaps } from "@/lib/cross-sell/store";
import { foldCrossSellCounts } from "@/lib/cross-sell/kept-counts";
import { teamSigningSecrets } from "@/lib/service/webhook-signing-secrets";
import { refreshReportRollups } from "@/lib/reports/rollups";
import { returnRecycledDeals } from "@/lib/workflow/deal-returns";
import { runSpeedToLead } from "@/lib/workflow/speed-to-lead";
import { backfillXDates } from "@/lib/xdates/store";
import { backfillConsumerIndex } from "@/lib/privacy/consumer-index";
import { deliverDueWebhooks, FINISHED_DELIVERY_DAYS, pruneFinishedDeliveries } from "@/lib/webhooks/deliver";
import { webhookUrlPolicy } from "@/lib/webhooks/endpoints";
import { rollPassedXDates } from "@/lib/xdates/upkeep";
import { foldXDateSums } from "@/lib/xdates/kept-sums";
import { sealClearValues } from "@/lib/security/sealed-columns";
import { rekeyEnrichmentQuestions } from "@/lib/enrichment/store";
import { ensureMonthPartitions, PARTITION_MONTHS_AHEAD } from "@/lib/privacy/partitions";
import { DISPOSAL_CRON, DISPOSAL_TIME_UTC, disposalSummary, runDisposal } from "@/lib/privacy/disposal";

// The one list of Coverdesk's scheduled work. Adding a scheduled job is one entry here: its name
// (the pg-boss queue), when it runs (cron, in UTC, to the minute), what it runs, its retries and
// a line for the admins' jobs page. lib/jobs/start.ts schedules and works every entry.

export type JobContext = { db: Db; config: Env; log: (line: string) => void };
export type JobData = Record<string, unknown> | null;

export type JobDefinition = {
  name: string;
  title: string;
  description: string;
  /** Cron, UTC; pg-boss fires it once across instances. */
  cron: string;
  /** The cron in words, for the page. */
  every: string;
  /** Tries after a failure (a scheduled run also comes round again at its next time). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** A run still going after this is counted failed (and retried). */
  expireInSeconds: number;
  /** Also run when the worker starts (after `afterSeconds`, with `data`), as the timers did. */
  atStart?: { afterSeconds: number; data?: Record<string, unknown> };
  /** Off for this configuration (its schedule is then removed). */
  enabled?: (config: Env) => boolean;
  /** Does the work; answers a line for the record, or null when there was nothing to do. Throws on failure. */
  run: (context: JobContext, data: JobData) => Promise<string | null>;
};

export const JOBS: readonly JobDefinition[] = [
  {
    name: "reconciliation-sync",
    title: "Reconciliation sync",
    description:
      "Lists the service's pulls and stores what the webhooks missed, once the sync interval has passed; keeps the webhook signing secrets current.",
    cron: "* * * * *",
    every: "checked every minute",
    retryLimit: 1,
    retryDelaySeconds: 30,
    expireInSeconds: 60 * 60,
    enabled: (config) => config.syncIntervalMs > 0,
    async run({ db, config, log }) {
      if (!(await isSyncDue(db, config.syncIntervalMs))) return null;
      // The receiver's copy of the registrations' signing secrets is kept current on the same schedule.
      void teamSigningSecrets(config.service).refresh();
      const start = await startSyncRun(db, "SCHEDULE", null);
      if (!start.started) return "another sync is running";
      const run = await runSync(db, config.service, start.run, (line) => log(`sync: ${line}`));
      return `sync ${run.status.toLowerCase()}`;
    },
  },
  {
    name: "x-date-upkeep",
    title: "X-date upkeep",
    description:
      "Rolls passed X-dates to the next renewal and folds the X-date page's pending changes into its sums; at start also writes the X-dates, cross-sell gaps and request-desk index of pulls stored before them.",
    cron: "0 * * * *",
    every: "hourly",
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 30 * 60,
    atStart: { afterSeconds: 0, data: { backfill: true } },
    async run({ db }, data) {
      const lines: string[] = [];
      if (data?.backfill === true) {
        const filled = await backfillXDates(db);
        if (filled > 0) lines.push(`X-dates written for ${filled} pulls stored before them`);
        const households = await backfillHouseholdGaps(db);
        if (households > 0) lines.push(`cross-sell gaps written for ${households} households stored before them`);
        const indexed = await backfillConsumerIndex(db);
        if (indexed > 0) lines.push(`${indexed} pulls stored before it added to the request desk's index`);
      }
      const moved = await rollPassedXDates(db);
      if (moved > 0) lines.push(`${moved} passed X-dates rolled to the next renewal`);
      // The page folds before it reads; this keeps the pending changes few when nobody opens it.
      await foldXDateSums(db);
      return lines.join("; ") || null;
    },
  },
  {
    name: "partition-upkeep",
    title: "Monthly partitions",
    description: `Creates the monthly partitions of the audit trail, the webhook inbox and monitoring events for this month and the next ${PARTITION_MONTHS_AHEAD}, so rows land in their own month and whole old months can be dropped.`,
    cron: "10 0 * * *",
    every: "daily, and at start",
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 10 * 60,
    atStart: { afterSeconds: 0 },
    async run({ db }) {
      const created = await ensureMonthPartitions(db);
      return created > 0 ? `${created} monthly partition${created === 1 ? "" : "s"} created` : null;
    },
  },
  {
    name: "seal-clear-values",
    title: "Sealing of personal data",
    description:
      "Seals the drivers' licence numbers and dates of birth that a version before encryption at rest stored in clear, in batches, each column once; keys old enrichment questions by a blind index.",
    cron: "40 3 * * *",
    every: "daily, and at start",
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 6 * 60 * 60,
    atStart: { afterSeconds: 0 },
    async run({ db, log }) {
      const sealed = await sealClearValues(db, undefined, (line) => log(`sealing: ${line}`));
      const rekeyed = await rekeyEnrichmentQuestions(db);
      const lines = [
        sealed > 0 ? `${sealed} stored documents had clear values sealed` : "",
        rekeyed > 0 ? `${rekeyed} enrichment questions keyed by a blind index` : "",
      ];
      return lines.filter(Boolean).join("; ") || null;
    },
  },
  {
    name: "alert-digest",
    title: "Alert digests",
    description:
      "Once the agency's digest hour has passed, mails each user the day's alerts; the day is recorded so it is sent once.",
    cron: "*/5 * * * *",
    every: "every 5 minutes",
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 15 * 60,
    async run({ db, config }) {
      const result = await runDailyDigest(db, config);
      return result.sent ? `sent ${result.mails} digests with ${result.alerts} alerts` : null;
    },
  },
  {
    name: "deal-returns",
    title: "Deal returns",
    description: "Lost deals whose X-date nears come back to WORKING, each once.",
    cron: "2 * * * *",
    every: "hourly",
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 30 * 60,
    atStart: { afterSeconds: 0 },
    async run({ db }) {
      const returned = await returnRecycledDeals(db);
      return returned > 0 ? `${returned} lost deals came back as their X-dates near` : null;
    },
  },
  {
    name: "refresh-timing",
    title: "Refresh timing",
    description:
      "Moves monitored accounts' next refreshes to the renewal lead time, and sets right the monitored flags a race left wrong.",
    cron: "5 * * * *",
    every: "hourly",
    retryLimit: 3,
    retryDelaySeconds: 120,
    expireInSeconds: 30 * 60,
    // After the X-date upkeep has rolled the X-dates.
    atStart: { afterSeconds: 30 },
    async run({ db, config }) {
      const lines: string[] = [];
      const failures: string[] = [];
      // Each half is tried even when the other fails; the run fails (and is retried) if either did.
      try {
        const fixed = await reconcileMonitoredFlags(db);
        if (fixed > 0) lines.push(`${fixed} pulls' monitored flag set right`);
      } catch (error) {
        failures.push(`monitored flags: ${messageOf(error)}`);
      }
      try {
        const summary = await timeRefreshes(db, config.service);
        if (summary.sent + summary.refused > 0)
          lines.push(
            `${summary.checked} monitored accounts: ${summary.sent} next refreshes moved, ${summary.refused} refused`,
          );
      } catch (error) {
        failures.push(`refresh timing: ${messageOf(error)}`);
      }
      // The rules page shows this forecast "as of" now (lib/monitoring/stored-forecast.ts).
      try {
        await storeRefreshForecast(db);
      } catch (error) {
        failures.push(`refresh forecast: ${messageOf(error)}`);
      }
      if (failures.length > 0) throw new Error(failures.join("; "));
      return lines.join("; ") || null;
    },
  },
  {
    name: "speed-to-lead",
    title: "Speed to lead",
    description:
      "New pulls nobody touched within the agency's time are handed on or raised to the managers, each once.",
    cron: "* * * * *",
    every: "every minute",
    retryLimit: 0,
    retryDelaySeconds: 0,
    expireInSeconds: 10 * 60,
    atStart: { afterSeconds: 0 },
    async run({ db }) {
      const acted = await runSpeedToLead(db);
      if (acted.length === 0) return null;
      const reassigned = acted.filter((a) => a.action === "REASSIGN").length;
      return `${reassigned} pulls handed on, ${acted.length - reassigned} raised to the managers`;
    },
  },
  {
    name: "retention-disposal",
    title: "Retention and disposal",
    description:
      "Disposes of what the retention schedule says is due: accounts (every pull of them) of prospects, lost deals and former clients, processed webhook bodies, old audit entries; never what is on legal hold. Audited with the counts.",
    cron: DISPOSAL_CRON,
    every: `daily at ${String(DISPOSAL_TIME_UTC.hour).padStart(2, "0")}:${String(DISPOSAL_TIME_UTC.minute).padStart(2, "0")} UTC`,
    retryLimit: 2,
    retryDelaySeconds: 300,
    expireInSeconds: 2 * 60 * 60,
    async run({ db }) {
      return disposalSummary(await runDisposal(db));
    },
  },
  {
    name: "report-rollups",
    title: "Report sums",
    description:
      "Adds the pulls changed since the last report to the reports' sums, so the changes waiting for a report stay few even when no one opens one (each report does the same first).",
    cron: "*/10 * * * *",
    every: "every 10 minutes",
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: 10 * 60,
    async run({ db }) {
      const redone = await refreshReportRollups(db);
      return redone > 0 ? `${redone} pulls' figures summed again` : null;
    },
  },
  {
    name: "cross-sell-counts",
    title: "Cross-sell counts",
    description:
      "Folds the changes to households since the last cross-sell page into its kept counts, so the changes waiting stay few even when no one opens the page (each page does the same first).",
    cron: "*/10 * * * *",
    every: "every 10 minutes",
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: 10 * 60,
    async run({ db }) {
      const changed = await foldCrossSellCounts(db);
      return changed > 0 ? `${changed} kept counts changed` : null;
    },
  },
  {
    name: "api-idempotency-cleanup",
    title: "API retry answers",
    description: "Removes the public API's kept answers to Idempotency-Key requests once they are 24 hours old.",
    cron: "17 * * * *",
    every: "hourly",
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: 10 * 60,
    async run({ db }) {
      const removed = await deleteExpiredIdempotencyRecords(db);
      return removed > 0 ? `${removed} kept answers removed` : null;
    },
  },
  {
    name: "webhook-delivery",
    title: "Outgoing webhooks",
    description:
      "Sends the outgoing webhooks that are due. Each instance with the worker also sends them every 2 seconds (lib/jobs/webhook-sender.ts); this run each minute is the fallback.",
    cron: "* * * * *",
    every: "every minute (and every 2 s in the worker)",
    retryLimit: 0,
    retryDelaySeconds: 5,
    expireInSeconds: 5 * 60,
    async run({ db, config }) {
      const sent = await deliverDueWebhooks(db, { policy: webhookUrlPolicy(config.nodeEnv) });
      const any = sent.delivered + sent.retrying + sent.failed > 0;
      return any ? `${sent.delivered} delivered, ${sent.retrying} to retry, ${sent.failed} given up` : null;
    },
  },
  {
    name: "webhook-delivery-cleanup",
    title: "Outgoing webhooks' log",
    description: `Removes outgoing webhook deliveries finished (delivered or given up) more than ${FINISHED_DELIVERY_DAYS} days ago; nothing still due.`,
    cron: "43 3 * * *",
    every: "daily at 03:43 UTC",
    retryLimit: 2,
    retryDelaySeconds: 300,
    expireInSeconds: 30 * 60,
    async run({ db }) {
      const removed = await pruneFinishedDeliveries(db);
      return removed > 0 ? `${removed} finished deliveries removed` : null;
    },
  },
];

export function getJob(name: string, jobs: readonly JobDefinition[] = JOBS): JobDefinition | undefined {
  return jobs.find((job) => job.name === name);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
