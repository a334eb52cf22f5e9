import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";

// The rate limits count the address that actually connected (server.mjs appends it to
// X-Forwarded-For), not what a client writes in that header. Linux routes all of 127.0.0.0/8 to
// the loopback, so two "clients" here connect from 127.0.0.2 and 127.0.0.3 and spend no other
// spec's allowance. The public reconnect page allows 20 bad tokens per address per 15 minutes.

function getFrom(localAddress: string, url: URL, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { localAddress, headers, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end();
  });
}

test("rotating X-Forwarded-For does not escape the limit, and one client's bad tokens do not close the page for another", async ({
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const badToken = (i: number) => new URL(`/api/connect/not-a-token-${stamp}-${i}/status`, baseURL);
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++) {
    // A new made-up address on every request: with the first entry believed, each got a fresh bucket.
    statuses.push(await getFrom("127.0.0.2", badToken(i), { "x-forwarded-for": `203.0.113.${i + 1}` }));
  }
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
  expect(statuses[20]).toBe(429);
  // Still limited with no header at all, or a header naming another client.
  expect(await getFrom("127.0.0.2", badToken(100))).toBe(429);
  expect(await getFrom("127.0.0.2", badToken(101), { "x-forwarded-for": "127.0.0.3" })).toBe(429);
  // Another client is not shut out by the first one's guesses (it used to share an "unknown" bucket).
  expect(await getFrom("127.0.0.3", badToken(102))).toBe(404);
});
