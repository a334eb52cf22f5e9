// The security headers of every response, in one place: proxy.ts applies them to pages and
// routes (with a fresh script nonce per page), next.config.ts to the static files the proxy
// skips. Pure, so that next.config.ts can import it and tests can read the policy.

export type HeaderContext = {
  pathname: string;
  /** A production build (`next build`, served by `npm start`): HSTS is sent, React's dev-only eval is not allowed. */
  production: boolean;
  /** The app's public URL is https: subresources are upgraded too. */
  https: boolean;
};

/** Pages whose address carries a secret token (the consumer's reconnect and servicing pages) never pass it on. */
export function referrerPolicyFor(pathname: string): string {
  return pathname.startsWith("/connect/") || pathname.startsWith("/api/connect/") || pathname.startsWith("/servicing/")
    ? "no-referrer"
    : "strict-origin-when-cross-origin";
}

// Features the app never uses; denying them means an injected frame or script cannot ask either.
export const PERMISSIONS_POLICY =
  "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), midi=()";

export const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The page policy. Scripts run only with this response's nonce (Next.js puts it on its own
 * scripts when it finds it in the request's policy) or when loaded by such a script.
 * Inline style *attributes* stay allowed: React renders a few (bar widths) and they cannot run code.
 */
export function pagePolicy(nonce: string, { production, https }: Pick<HeaderContext, "production" | "https">): string {
  const directives = [
    "default-src 'self'",
    // React rebuilds server error stacks with eval in development only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${production ? "" : " 'unsafe-eval'"}`,
    // Development injects styles without a nonce while it hot-reloads.
    production ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self' 'unsafe-inline'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Route handlers answer JSON, CSV and files: nothing in them may load or be framed. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Documents, uploads and policy forms relayed from the service. Only PDFs and images open inline, under their
 * own type with nosniff (lib/pulls/download-headers.ts); anything else downloads. Chromium
 * draws its PDF and image viewers as a page of inline styles around an embed, which
 * `default-src 'none'` breaks (the PDF shows in a strip at the top), so these keep the framing
 * rule only.
 */
export const DOWNLOAD_POLICY = "frame-ancestors 'none'";
const DOWNLOAD_ROUTE = /^\/api\/pulls\/[^/]+\/(?:documents\/[^/]+|answers\/[^/]+\/files\/[^/]+|policy-forms\/[^/]+)$/;

/** The policy of a route handler's answer. */
export function routePolicy(pathname: string): string {
  return DOWNLOAD_ROUTE.test(pathname) ? DOWNLOAD_POLICY : API_POLICY;
}

/** Every header but the policy, which depends on whether the response is a page. */
export function commonSecurityHeaders({
  pathname,
  production,
}: Pick<HeaderContext, "pathname" | "production">): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": referrerPolicyFor(pathname),
    "Permissions-Policy": PERMISSIONS_POLICY,
    ...(production ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/** A nonce of 128 random bits, base64 as CSP expects. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
