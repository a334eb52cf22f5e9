// Where a visitor may be sent after signing in (or out): only somewhere on this app. The value
// comes from the address bar (`/login?callbackUrl=…`), so anyone can craft it. Browsers forgive
// a lot when they read a URL (tabs and newlines are dropped, "\" reads as "/", "//host" is
// another site), so the value is resolved exactly as a browser would, with the WHATWG URL
// parser, against the app's own origin, and followed only when it stays there.

/** Characters no honest path contains and that browsers silently drop or reinterpret. */
const SUSPICIOUS = /[\u0000-\u001f\u007f\\]/;

/**
 * The path (with query and fragment) to go to, or "/" for anything that is not plainly a
 * place on `appOrigin`: other origins, other schemes, control characters, backslashes.
 */
export function safeRedirectPath(value: unknown, appOrigin: string): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== "string" || candidate === "" || SUSPICIOUS.test(candidate)) return "/";
  let origin: string;
  let target: URL;
  try {
    origin = new URL(appOrigin).origin;
    // A path is resolved against our origin; anything else must be a whole URL of its own (so
    // "https:evil.example", which the parser would otherwise read relative to us, is refused).
    target = candidate.startsWith("/") ? new URL(candidate, origin) : new URL(candidate);
  } catch {
    return "/";
  }
  if (target.origin !== origin) return "/";
  const path = `${target.pathname}${target.search}${target.hash}`;
  // "/.//evil" resolves to the path "//evil", which a browser would read as another host.
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}
