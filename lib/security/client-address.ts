import { isIP } from "node:net";

// The visitor's address, for rate limits. Behind a reverse proxy the first X-Forwarded-For hop
// is the client; the value is only trusted as a key for counting, never for permissions.

export function clientAddress(headers: Pick<Headers, "get">): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const candidate = forwarded || headers.get("x-real-ip")?.trim() || "";
  return isIP(candidate) ? candidate : "unknown";
}
