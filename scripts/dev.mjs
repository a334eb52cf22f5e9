// `npm run dev`: the sandbox service, the AgencyZoom stand-in and the app together, one prefixed log, one Ctrl-C.
import { spawn } from "node:child_process";

const children = [];
let stopping = false;

function run(name, command, args, color) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: process.env });
  const prefix = `\x1b[${color}m[${name}]\x1b[0m `;
  const pipe = (stream, out) => {
    let buffer = "";
    stream.on("data", (chunk) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) out.write(prefix + line + "\n");
    });
  };
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  child.on("exit", (code) => {
    if (!stopping) {
      console.error(`${prefix}exited with code ${code}; stopping the rest`);
      stop(code ?? 1);
    }
  });
  children.push(child);
}

function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

run("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], 35);
// The AgencyZoom stand-in (port 4020), where the app's default AGENCYZOOM_BASE_URL points in development.
run("agencyzoom", process.execPath, ["--import", "tsx", "sandbox/agencyzoom/main.ts"], 33);
run("app", process.execPath, ["node_modules/next/dist/bin/next", "dev", ...process.argv.slice(2)], 36);
