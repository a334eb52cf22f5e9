// Runs once when a server instance starts: open and migrate the database, seed the demo
// users where demo mode is on, and start the ingestion worker.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/startup");
  await startServer();
}
