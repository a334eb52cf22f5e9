// Runs one open-loop load in its own process, so the load generator never shares an event
// loop with the server it measures. Usage: load-child.ts <url> <rate> <bodies.json>
import { readFileSync } from "node:fs";
import { openLoop } from "./load";

const [url, rate, file] = process.argv.slice(2);
if (!url || !rate || !file) {
  console.error("usage: load-child.ts <url> <rate per second> <bodies.json>");
  process.exit(2);
}
const bodies = JSON.parse(readFileSync(file, "utf8")) as string[];
openLoop(url, bodies, Number(rate)).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
