// Runs once when a server instance starts: open and migrate the database, seed the demo
// users where demo mode is on, and start the ingestion worker. A configuration that production
// refuses stops the process here (lib/startup.ts).
export async function register(): Promise<void> {
  // Not an environment variable read at run time (those live in lib/env.ts): the bundler writes
  // the runtime in here, so the edge compile of this file drops the Node-only startup below. Read
  // through another module, the literal is lost: the edge compile then takes in the whole startup
  // and warns about every Node API in it (process.exit, process.cwd…).
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerOrExit } = await import("./lib/startup");
  await startServerOrExit();
}
