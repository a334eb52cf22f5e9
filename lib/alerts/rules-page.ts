import "server-only";
import { desc } from "drizzle-orm";
import type { Db } from "@/db/types";
import { digestRuns } from "@/db/schema";
import type { Env } from "@/lib/env";
import { listOutbox, type OutboxEntry } from "./mailer";
import { readAlertRules, type AlertRules } from "./rules";

// Everything the admin's alert page (app/(app)/admin/alerts/page.tsx) shows: the rules, the last
// digests, where mail goes, and, without SMTP, the outbox of .eml files nobody was sent.

export type AlertRulesPage = {
  rules: AlertRules;
  runs: Array<{ day: string; mails: number | null; finishedAt: Date | null }>;
  /** Null: mail goes to the outbox folder below. */
  smtpHost: string | null;
  outboxDir: string;
  outbox: OutboxEntry[];
};

export async function loadAlertRulesPage(db: Db, config: Pick<Env, "mail">): Promise<AlertRulesPage> {
  const [rules, runs] = await Promise.all([
    readAlertRules(db),
    db
      .select({ day: digestRuns.day, mails: digestRuns.mails, finishedAt: digestRuns.finishedAt })
      .from(digestRuns)
      .orderBy(desc(digestRuns.day))
      .limit(7),
  ]);
  const smtp = config.mail.smtpUrl ? new URL(config.mail.smtpUrl) : null;
  return {
    rules,
    runs,
    // The host only: the URL carries the SMTP password.
    smtpHost: smtp ? `${smtp.hostname}${smtp.port ? `:${smtp.port}` : ""}` : null,
    outboxDir: config.mail.outboxDir,
    outbox: smtp ? [] : await listOutbox(config.mail, 20),
  };
}
