// Runs once when a server instance starts: open and migrate the database, seed the demo
// users where demo mode is on, and start the ingestion worker. A configuration that production
// refuses stops the process here (lib/startup.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerOrExit } = await import("./lib/startup");
  await startServerOrExit();
}
