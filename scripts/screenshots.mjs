// `npm run screenshots`: the README's pictures of each role's main pages, made from the demo
// agency so that they never go stale. Starts the stack a newcomer gets from `npm run dev` (the
// sandbox and `next dev` on an embedded PGlite database) on a fresh database and free ports,
// waits until the demo agency's nine months of history are written, signs in as each demo role
// in Chromium, and writes docs/screenshots/<role>-<page>-<desktop|phone>.png.
//
// It never touches the developer's `.data/` nor a running `npm run dev`: the database is a new
// temporary folder, and the app runs from a copy of the checkout under
// .next/cache/coverdesk-screenshots/ (`next dev` allows one server per folder, and the copy
// keeps edits made during the run out of the pictures). Every process it starts is stopped at
// the end, on failure and on Ctrl-C, and the copy and the database are removed; the log of the
// stack stays in .next/cache/coverdesk-screenshots/dev.log.
// SCREENSHOTS_HISTORY_TIMEOUT_SECONDS (default 1200) bounds the wait for the history.
import { spawn } from "node:child_process";
import {
  cpSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, request as playwrightRequest } from "playwright-core";
import { findChromium } from "./find-chromium.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT_DIR = path.join(ROOT, "docs", "screenshots");
const COPY_DIR = path.join(ROOT, ".next", "cache", "coverdesk-screenshots");
const PASSWORD = "coverdesk-demo";
const APP_READY_TIMEOUT_MS = 5 * 60_000;
const HISTORY_TIMEOUT_MS = Number(process.env.SCREENSHOTS_HISTORY_TIMEOUT_SECONDS || 20 * 60) * 1000;
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, fullPage: true },
  phone: {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    fullPage: false,
  },
};
// Hidden in every picture: the dev tools' badge of `next dev`.
const SCREENSHOT_STYLE = "nextjs-portal { display: none !important; }";
// Relative times of things that happened during the run itself ("3 minutes ago") differ from one
// run to the next; they are masked. Days and months, counted from the history's own dates, stay.
const LIVE_TIME = /\bnow\b|second|minute|hour/i;

const started = Date.now();
const seconds = (from = started) => `${Math.round((Date.now() - from) / 1000)} s`;
const log = (message) => console.info(`screenshots: ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Processes: everything started here is stopped by `cleanUp`, whatever happens.

let devServer = null; // the process group of scripts/dev.mjs (the sandbox, next dev and its workers)
let groupStopped = false;
let browser = null;
let dataDir = null;
let cleaning = null;
let interrupted = false;
let failureLog = null;
let copiedApp = null;

/** Sends the signal to the stack's process group; false when no process is left in it. */
function signalGroup(signal) {
  try {
    process.kill(-devServer.pid, signal);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(withinMs) {
  const deadline = Date.now() + withinMs;
  while (signalGroup(0)) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

async function cleanUp() {
  cleaning ??= (async () => {
    await browser?.close().catch(() => {});
    if (devServer) {
      // The sandbox, next dev and its workers (which can outlive next dev): the whole group,
      // asked first, then by force.
      signalGroup("SIGTERM");
      if (!(await groupGone(10_000))) {
        signalGroup("SIGKILL");
        await groupGone(5_000);
      }
      groupStopped = true;
    }
    for (const dir of [dataDir, copiedApp]) {
      if (!dir) continue;
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (error) {
        console.error(`screenshots: could not remove ${dir}: ${error.message}`);
      }
    }
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    interrupted = true;
    console.error(`\nscreenshots: ${signal}: stopping what was started`);
    void cleanUp().finally(() => process.exit(130));
  });
}
// Last resort (an exception thrown past everything): no process group is left behind.
process.on("exit", () => {
  if (devServer && !groupStopped) signalGroup("SIGKILL");
});

// ---------------------------------------------------------------------------------------------
// The stack.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// What the checkout holds, minus what is generated, installed, local or private (.env files:
// the pictures come from the defaults, never from a developer's settings).
const LEFT_OUT = new Set([
  "node_modules",
  ".next",
  ".data",
  ".git",
  "docs",
  "test-results",
  "playwright-report",
  "blob-report",
  "next-env.d.ts",
  // Without a lockfile of its own the copy's workspace root is the checkout's, where
  // node_modules (a link to the checkout's) lives.
  "package-lock.json",
]);

/** One run at a time: a second would replace the copy the first one serves from. */
function takeRunLock() {
  mkdirSync(COPY_DIR, { recursive: true });
  const lock = path.join(COPY_DIR, "running.pid");
  let other = 0;
  try {
    other = Number(readFileSync(lock, "utf8"));
  } catch {
    // no other run
  }
  let alive = false;
  try {
    alive = other > 0 && other !== process.pid && process.kill(other, 0);
  } catch (error) {
    alive = error.code === "EPERM";
  }
  if (alive) throw new Error(`another npm run screenshots is running (pid ${other}; its lock: ${lock})`);
  writeFileSync(lock, String(process.pid));
  process.on("exit", () => rmSync(lock, { force: true }));
}

function copyCheckout() {
  const appDir = path.join(COPY_DIR, "app");
  // A new copy every run, its `.next/` too: a compile cache kept from a run on other sources
  // went on invalidating for minutes, and every invalidation refreshed the open page.
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(appDir, { recursive: true });
  for (const entry of readdirSync(ROOT)) {
    if (LEFT_OUT.has(entry) || entry.startsWith(".env") || entry.endsWith(".tsbuildinfo")) continue;
    cpSync(path.join(ROOT, entry), path.join(appDir, entry), {
      recursive: true,
      filter: (source) => path.basename(source) !== "node_modules" && !path.basename(source).startsWith(".env"),
    });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(appDir, "node_modules"), "dir");
  copiedApp = appDir;
  return appDir;
}

/** The environment of `npm run dev`, with only the folder and ports changed. */
function stackEnv({ appPort, sandboxPort, pgliteDir }) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_|PGLITE_|SERVICE_|SANDBOX_|COVERDESK_|NEXTAUTH_)|^(PORT|NODE_ENV)$/.test(name)) delete env[name];
  }
  const appUrl = `http://127.0.0.1:${appPort}`;
  return {
    ...env,
    PGLITE_DIR: pgliteDir,
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_STORAGE_PORT: "0", // any free port: the one after sandboxPort may be the app's
    SANDBOX_WEBHOOK_URL: `${appUrl}/api/webhooks/service`,
    SERVICE_BASE_URL: `http://127.0.0.1:${sandboxPort}/api/v1.0.0`,
    NEXTAUTH_URL: appUrl,
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** What the app's log says of the demo history (the app prints "[demo] …" lines as it goes). */
const history = { startedAt: 0, finishedAt: 0, lastLineAt: 0, failed: null, refused: [] };

function startStack(appDir, ports, logFile) {
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, ["scripts/dev.mjs", "-p", String(ports.appPort), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: stackEnv({ ...ports, pgliteDir: path.join(dataDir, "pglite") }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // a process group of its own, stopped as one
  });
  devServer = child;
  let pending = "";
  const watch = (chunk) => {
    out.write(chunk);
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.replace(/\x1b\[[0-9;]*m/g, "");
      const demo = /\[demo\] (.*)$/.exec(line)?.[1];
      if (!demo) continue;
      history.lastLineAt = Date.now();
      if (/^(building|resuming) the demo agency's history/.test(demo)) history.startedAt = Date.now();
      if (demo.startsWith("the demo agency's history is complete")) history.finishedAt = Date.now();
      if (/\brefused\b|^refreshes: /.test(demo) && !/\(0 refused\)/.test(demo)) history.refused.push(demo);
      if (/^building the history failed|did not answer/.test(demo)) history.failed = demo;
      else log(`history: ${demo.replace(/ \(in the background\)$/, "")} (${seconds()})`);
    }
  };
  child.stdout.on("data", watch);
  child.stderr.on("data", watch);
  return child;
}

/** How the stack ended, when it did ("code 1", "SIGTERM"); null while it runs. */
function stackExited() {
  if (devServer.exitCode !== null) return `code ${devServer.exitCode}`;
  return devServer.signalCode;
}

function tailOf(file, lines = 40) {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

async function waitForApp(appUrl, logFile) {
  const deadline = Date.now() + APP_READY_TIMEOUT_MS;
  let lastSaid = Date.now();
  for (;;) {
    if (stackExited()) throw new Error(`npm run dev exited (${stackExited()}):\n${tailOf(logFile)}`);
    const up = await fetch(`${appUrl}/api/health`, { signal: AbortSignal.timeout(60_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline)
      throw new Error(`the app did not answer within ${seconds(deadline - APP_READY_TIMEOUT_MS)}:\n${tailOf(logFile)}`);
    if (Date.now() - lastSaid > 15_000) {
      log(`waiting for the app (the first compile of next dev), ${seconds()}`);
      lastSaid = Date.now();
    }
    await sleep(1_000);
  }
}

// ---------------------------------------------------------------------------------------------
// The browser.

async function signIn(appUrl, email) {
  for (let attempt = 1; ; attempt++) {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop.viewport });
    const page = await context.newPage();
    try {
      await page.goto(`${appUrl}/login`, { timeout: 180_000 });
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 90_000 });
      return { context, page, state: await context.storageState() };
    } catch (error) {
      const kept = await keepFailure(page, `sign-in-${email}`);
      await context.close();
      const message = `signing in as ${email} (what the browser saw is in ${kept}): ${error.message}`;
      if (attempt >= 2) throw new Error(message, { cause: error });
      log(`${message.split("\n")[0]}; trying again`);
    }
  }
}

/**
 * A session for following the history while it is built, through next-auth's own form post:
 * the pages' sessions come later, from the sign-in page, once the history is complete.
 */
async function signInForProgress(appUrl, email) {
  const api = await playwrightRequest.newContext({ baseURL: appUrl, timeout: 180_000 });
  const { csrfToken } = await (await api.get("/api/auth/csrf")).json();
  await api.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password: PASSWORD, callbackUrl: `${appUrl}/` },
    maxRedirects: 0,
  });
  const { cookies } = await api.storageState();
  if (!cookies.some((c) => c.name.endsWith("next-auth.session-token")))
    throw new Error(`signing in as ${email} through /api/auth gave no session`);
  return api;
}

/** The banner's words ("Building the demo agency's history: 140 of 320 accounts"), from a signed-in page. */
function bannerOf(html) {
  const match = /data-testid="demo-history-banner"[^>]*>([\s\S]*?)<\/aside>/.exec(html);
  if (!match) return null;
  return match[1]
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** Polls what the banner shows ("140 of 320 accounts") until the app says the history is complete. */
async function waitForHistory(appUrl, api, logFile) {
  const deadline = Date.now() + HISTORY_TIMEOUT_MS;
  let said = "";
  let saidAt = 0;
  for (;;) {
    if (history.failed) throw new Error(`the demo history failed: ${history.failed}\n${tailOf(logFile)}`);
    if (stackExited()) throw new Error(`npm run dev exited (${stackExited()}):\n${tailOf(logFile)}`);
    if (history.finishedAt) return;
    if (Date.now() > deadline)
      throw new Error(`the demo history was not complete after ${seconds(deadline - HISTORY_TIMEOUT_MS)}`);
    const asked = Date.now();
    const html = await api
      .get(`${appUrl}/admin/assignment`, { timeout: 60_000 })
      .then((r) => r.text())
      .catch(() => "");
    // A page that took longer than the app's next log line is older news than that line.
    const banner = history.lastLineAt > asked ? null : bannerOf(html);
    const counted = banner && /: (\d+) of (\d+) (.*?)\. Reload/.exec(banner);
    const now = counted ? `${counted[1]}/${counted[2]} ${counted[3]}` : history.startedAt ? "" : "not started yet";
    if ((now && now !== said) || Date.now() - saidAt > 30_000) {
      if (now || said) log(`history: ${now || said} (${seconds()})`);
      said = now || said;
      saidAt = Date.now();
    }
    await sleep(2_000);
  }
}

/** Waits for the page to settle: loaded, fonts in, client components hydrated, no request pending. */
async function settle(page) {
  await page.waitForLoadState("load");
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready);
  await sleep(500);
}

/** The page is the one wanted, signed in, whole: no sign-in page, error page or history banner. */
async function check(page, shot) {
  const url = new URL(page.url());
  if (url.pathname.startsWith("/login")) throw new Error("the sign-in page was shown");
  if (!shot.path.test(url.pathname)) throw new Error(`expected ${shot.path}, got ${url.pathname}`);
  if ((await page.getByTestId("demo-history-banner").count()) > 0) throw new Error("the history banner is shown");
  const heading = await page.locator("h1").first().textContent({ timeout: 30_000 });
  if (!heading || /error|went wrong|not found/i.test(heading)) throw new Error(`the page says "${heading}"`);
}

/** Opens the shot's page; once more if it was not whole (`next dev` may reload a page it just compiled). */
async function open(page, appUrl, shot) {
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${appUrl}${shot.route}`);
    await settle(page);
    try {
      await check(page, shot);
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
      log(`${shot.name}: ${error.message}; opening it again`);
    }
  }
}

/** The pages: each role's main page and one more; `find` looks up an address once. */
const SHOTS = [
  { role: "agent", name: "agent-my", path: /^\/my$/, route: "/my" },
  {
    role: "agent",
    name: "agent-pull",
    path: /^\/pulls\/[^/]+$/,
    // The agent's won pull (auto and home) with the largest premium: the same one every run.
    find: async (page, appUrl) => {
      await page.goto(`${appUrl}/my`);
      const mine = await page.getByRole("link", { name: /See all .* of mine/ }).getAttribute("href");
      const list = new URL(mine ?? "/pulls", appUrl);
      const filters = { stage: "WON", lines: "AUTO + HOMEOWNERS", sort: "premium", dir: "desc" };
      for (const [key, value] of Object.entries(filters)) list.searchParams.set(key, value);
      await page.goto(list.href);
      const href = await page.locator('table a[href^="/pulls/"]').first().getAttribute("href");
      if (!href) throw new Error("agent-pull: the agent has no won auto and home pull");
      return href;
    },
  },
  { role: "manager", name: "manager-reports", path: /^\/reports$/, route: "/reports" },
  { role: "admin", name: "admin-pulls", path: /^\/pulls$/, route: "/pulls" },
  { role: "admin", name: "admin-users", path: /^\/admin\/users$/, route: "/admin/users" },
  { role: "admin", name: "admin-assignment", path: /^\/admin\/assignment$/, route: "/admin/assignment" },
];

const EMAILS = { admin: "admin@example.com", manager: "manager@example.com", agent: "agent@example.com" };

function loadSharp() {
  try {
    return createRequire(import.meta.url)("sharp"); // Next's own image library, when installed
  } catch {
    return null;
  }
}

/** Where a failed picture leaves what the browser saw (kept: the rest of the run is removed). */
async function keepFailure(page, name) {
  const dir = mkdtempSync(path.join(tmpdir(), "coverdesk-screenshots-failure-"));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true }).catch(() => {});
  writeFileSync(path.join(dir, `${name}.html`), await page.content().catch(() => ""));
  return dir;
}

async function capture(appUrl, states) {
  const images = new Map();
  for (const shot of SHOTS) {
    for (const [kind, settings] of Object.entries(VIEWPORTS)) {
      const { fullPage, ...contextOptions } = settings;
      const context = await browser.newContext({ ...contextOptions, storageState: states[shot.role] });
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      try {
        shot.route ??= await shot.find(page, appUrl);
        await open(page, appUrl, shot);
        const png = await page.screenshot({
          fullPage,
          animations: "disabled",
          caret: "hide",
          style: SCREENSHOT_STYLE,
          mask: [page.locator("time").filter({ hasText: LIVE_TIME })],
          maskColor: "#e2e8f0",
        });
        images.set(`${shot.name}-${kind}.png`, png);
      } catch (error) {
        const kept = await keepFailure(page, `${shot.name}-${kind}`);
        throw new Error(`${shot.name}-${kind} (${page.url()}; what the browser saw is in ${kept}): ${error.message}`, {
          cause: error,
        });
      } finally {
        await context.close();
      }
    }
    log(`captured ${shot.name} (${seconds()})`);
  }
  return images;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const executablePath = await findChromium();
  const [appPort, sandboxPort] = [await freePort(), await freePort()];
  const appUrl = `http://127.0.0.1:${appPort}`;
  dataDir = mkdtempSync(path.join(tmpdir(), "coverdesk-screenshots-"));
  // Kept after the run (the database is not): what the stack said, for a run that failed.
  const logFile = path.join(COPY_DIR, "dev.log");

  takeRunLock();
  const appDir = copyCheckout();
  failureLog = logFile;
  log(
    `starting npm run dev from a copy of the checkout: app ${appUrl}, sandbox port ${sandboxPort}, database ${dataDir}`,
  );
  startStack(appDir, { appPort, sandboxPort }, logFile);
  await waitForApp(appUrl, logFile);
  const appAnswered = seconds();
  log(`the app answered after ${appAnswered}`);

  browser = await chromium.launch({
    executablePath,
    // Ctrl-C is handled here (cleanUp closes the browser too); Playwright's own handler would exit first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--font-render-hinting=none",
    ],
  });
  const progress = await signInForProgress(appUrl, EMAILS.admin);
  await waitForHistory(appUrl, progress, logFile);
  await progress.dispose();
  const historyTook = `${Math.round((history.finishedAt - (history.startedAt || started)) / 1000)} s`;
  // The history is the same every time unless a step was refused (a call to the sandbox that
  // failed on a very busy machine): the pictures may then differ a little, and it is said.
  if (history.refused.length > 0)
    log(`warning: ${history.refused.length} step(s) of the history were refused; run again for the usual pictures`);
  log(`history: complete, in ${historyTook} (${seconds()})`);
  const states = {};
  for (const role of ["admin", "manager", "agent"]) {
    const session = await signIn(appUrl, EMAILS[role]);
    states[role] = session.state;
    await session.context.close();
  }

  // `next dev` compiles each page on its first visit: one visit each before the pictures.
  const warm = await browser.newContext({ storageState: states.admin });
  const warmPage = await warm.newPage();
  for (const route of ["/my", "/pulls", "/reports", "/admin/users", "/admin/assignment"])
    await warmPage.goto(`${appUrl}${route}`, { timeout: 180_000 });
  await warm.close();
  log(`pages compiled (${seconds()})`);

  const images = await capture(appUrl, states);

  const sharp = loadSharp();
  if (!sharp) log("sharp is not installed: the PNGs are written as Chromium made them (larger)");
  mkdirSync(OUT_DIR, { recursive: true });
  const written = [];
  for (const [name, png] of images) {
    // 256 colours, as pngquant would: a third of the size for a page of text, no visible change.
    const data = sharp
      ? await sharp(png).png({ palette: true, quality: 100, effort: 10, compressionLevel: 9 }).toBuffer()
      : png;
    writeFileSync(path.join(OUT_DIR, name), data);
    // A PNG's size is in its header (IHDR): width at byte 16, height at 20.
    written.push({ name, width: data.readUInt32BE(16), height: data.readUInt32BE(20), bytes: data.length });
  }

  console.info("");
  for (const w of written)
    console.info(
      `  docs/screenshots/${w.name.padEnd(32)} ${`${w.width}×${w.height}`.padEnd(10)} ${Math.round(w.bytes / 1024)} KB`,
    );
  const total = written.reduce((sum, w) => sum + w.bytes, 0);
  log(
    `${written.length} pictures (${Math.round(total / 1024)} KB) in docs/screenshots/ in ${seconds()}: ` +
      `the app answered after ${appAnswered}, the demo history took ${historyTook}`,
  );
}

try {
  await main();
  await cleanUp();
} catch (error) {
  if (!interrupted) {
    // Playwright's messages end in the whole call log (a page that reloads: hundreds of lines).
    const message = (error instanceof Error ? error.message : String(error)).split(/\n(?:Call log:|=+ logs =+)/)[0];
    console.error(`screenshots: failed after ${seconds()}: ${message}`);
    if (failureLog)
      console.error(`screenshots: the log of npm run dev is in ${path.relative(process.cwd(), failureLog)}`);
  }
  await cleanUp();
  process.exitCode = 1;
}
