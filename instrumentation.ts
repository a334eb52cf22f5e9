// Runs once when a server instance starts: open and migrate the database, seed the demo
// users where demo mode is on, and start the ingestion worker.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/startup");
  const { EnvError } = await import("./lib/env");
  try {
    await startServer();
  } catch (error) {
    // A configuration that would run unsafe or half-working stops the process, naming the
    // variable; Next.js would otherwise log it and serve every request with an error.
    if (!(error instanceof EnvError)) throw error;
    console.error(`[startup] ${error.message}`);
    process.exit(1);
  }
}
