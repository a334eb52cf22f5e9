import "server-only";
import { desc } from "drizzle-orm";
import type { Db } from "@/db/types";
import { digestRuns } from "@/db/schema";
import type { Env } from "@/lib/env";
import { listOutbox, type OutboxEntry } from "@/lib/alerts/mailer";
import type { RefreshForecast } from "@/lib/monitoring/refresh-forecast";
import { getRefreshForecastAsOf } from "@/lib/monitoring/stored-forecast";
import { getAgencyRules, type AgencyRules } from "@/lib/rules/agency-rules";

// Everything the admin's rules page (app/(app)/admin/rules/page.tsx) shows: the rules, the
// refreshes they forecast, the last digests, where mail goes, and, without SMTP, the outbox of
// .eml files nobody was sent.

export type AgencyRulesPage = {
  rules: AgencyRules;
  forecast: RefreshForecast;
  /** When the forecast was computed (the refresh-timing pass stores it; lib/monitoring/stored-forecast.ts). */
  forecastAsOf: Date;
  runs: Array<{ day: string; mails: number | null; finishedAt: Date | null }>;
  /** Null: mail goes to the outbox folder below. */
  smtpHost: string | null;
  outboxDir: string;
  outbox: OutboxEntry[];
};

export async function loadAgencyRulesPage(db: Db, config: Pick<Env, "mail">): Promise<AgencyRulesPage> {
  const rules = await getAgencyRules(db);
  const [stored, runs] = await Promise.all([
    getRefreshForecastAsOf(db, rules),
    db
      .select({ day: digestRuns.day, mails: digestRuns.mails, finishedAt: digestRuns.finishedAt })
      .from(digestRuns)
      .orderBy(desc(digestRuns.day))
      .limit(7),
  ]);
  const smtp = config.mail.smtpUrl ? new URL(config.mail.smtpUrl) : null;
  return {
    rules,
    forecast: stored.forecast,
    forecastAsOf: stored.computedAt,
    runs,
    // The host only: the URL carries the SMTP password.
    smtpHost: smtp ? `${smtp.hostname}${smtp.port ? `:${smtp.port}` : ""}` : null,
    outboxDir: config.mail.outboxDir,
    outbox: smtp ? [] : await listOutbox(config.mail, 20),
  };
}
