// `npm run worker`: a process that works the inbox, sends the outgoing webhooks and runs the
// scheduled jobs, without serving pages. Start as many as a bulk refresh needs beside the app
// instances (which may then run with COVERDESK_WORKER=false); they coordinate through
// PostgreSQL (docs/operations.md, "Several instances"). SIGTERM or SIGINT stops it after it has
// settled or given back what it holds.
import { EnvError } from "@/lib/env";
import { startWorkerProcess } from "@/lib/startup";

startWorkerProcess().then(
  () => console.info("[worker] working the inbox and the scheduled jobs; SIGTERM stops it"),
  (error: unknown) => {
    console.error(error instanceof EnvError ? `[worker] ${error.message}` : error);
    process.exit(1);
  },
);
