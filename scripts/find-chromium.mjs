// Finds a Chromium for the end-to-end tests: $CHROMIUM_PATH, then /usr/bin/chromium. Where
// there is none and we are root on Debian, installs Debian's package; otherwise says how.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function isDebian() {
  try {
    return /debian|ubuntu/i.test(readFileSync("/etc/os-release", "utf8"));
  } catch {
    return false;
  }
}

export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH points at ${fromEnv}, which does not exist.`);
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() === 0 && isDebian()) {
    console.log("Chromium not found: installing Debian's chromium package…");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  }
  console.error(
    "No Chromium found for the end-to-end tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) " +
      "or set CHROMIUM_PATH to a Chrome or Chromium binary.",
  );
  process.exit(1);
}
