import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// The stand-in's JWTs: HS256 over { sub, exp }, with a key made at start, so a token is refused
// once it expires or when it came from another run, as the real API refuses a stale one (401).

export type TokenIssuer = {
  issue: (subject: string) => string;
  /** The subject of a valid, unexpired token; null otherwise. */
  verify: (token: string) => string | null;
  /** Makes every token issued so far expire now (tests of re-login, the demo). */
  expireAll: () => void;
};

const b64 = (value: Buffer | string) => Buffer.from(value).toString("base64url");

export function createTokenIssuer(ttlSeconds: number, now: () => number = Date.now): TokenIssuer {
  const key = randomBytes(32);
  // Bumped by expireAll: a token of an earlier generation is expired, a new sign-in is not.
  let generation = 0;
  const sign = (data: string) => createHmac("sha256", key).update(data).digest();
  return {
    issue(subject) {
      const issuedAt = Math.floor(now() / 1000);
      const head = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));
      const body = b64(
        JSON.stringify({
          sub: subject,
          iat: issuedAt,
          exp: issuedAt + ttlSeconds,
          gen: generation,
          jti: b64(randomBytes(8)),
        }),
      );
      return `${head}.${body}.${b64(sign(`${head}.${body}`))}`;
    },
    verify(token) {
      const [head, body, signature, extra] = token.split(".");
      if (!head || !body || !signature || extra !== undefined) return null;
      const expected = sign(`${head}.${body}`);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
          sub?: unknown;
          iat?: unknown;
          exp?: unknown;
          gen?: unknown;
        };
        if (typeof claims.sub !== "string" || typeof claims.exp !== "number" || typeof claims.iat !== "number")
          return null;
        const nowSeconds = Math.floor(now() / 1000);
        if (claims.exp <= nowSeconds || claims.gen !== generation) return null;
        return claims.sub;
      } catch {
        return null;
      }
    },
    expireAll() {
      generation++;
    },
  };
}
