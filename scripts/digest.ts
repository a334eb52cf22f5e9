// `npm run digest -- --now`: today's alert digests, sent at once (on PostgreSQL; the embedded
// database opens in one process only, so there the admin's Send now button does the same).
// Without --now it sends only if the digest hour has passed and no instance has sent today's.
import { parseArgs } from "node:util";
import { runDailyDigest } from "@/lib/alerts/digest";
import { openConfiguredDatabase } from "@/lib/database";
import { env } from "@/lib/env";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { now: { type: "boolean", default: false } } });
  const config = env();
  if (!config.databaseUrl) {
    console.error(
      "The digest command needs DATABASE_URL (PostgreSQL). On the embedded database the running app holds it: use Send now on /admin/alerts.",
    );
    return 2;
  }
  const connection = await openConfiguredDatabase(config);
  try {
    const result = await runDailyDigest(connection.db, config, { force: values.now });
    if (!result.sent)
      console.log(
        result.why === "before-hour"
          ? "Not yet: the digest hour has not come (use --now to send anyway)."
          : "Today's digests have gone out already (use --now to send what is new since).",
      );
    else
      console.log(
        `Sent ${result.mails} digest${result.mails === 1 ? "" : "s"} with ${result.alerts} alert${result.alerts === 1 ? "" : "s"} ${config.mail.smtpUrl ? "over SMTP" : `to ${config.mail.outboxDir}`}.`,
      );
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
