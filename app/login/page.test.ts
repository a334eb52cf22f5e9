import { isValidElement, type ReactElement } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";

// The login page itself, as the server renders it: the callbackUrl it hands the form, and where
// it sends someone who is already signed in, for hostile values of the query string.

let signedIn = false;
vi.mock("@/lib/auth/session", () => ({
  getSessionUser: async () => (signedIn ? { id: "u", email: "a@b.c", name: "A", role: "ADMIN" } : null),
}));

const { default: LoginPage } = await import("./page");

/** The callbackUrl prop of the login form in the rendered tree. */
function formCallback(node: unknown): string | undefined {
  if (!isValidElement(node)) return undefined;
  const props = (node as ReactElement<{ callbackUrl?: string; children?: unknown }>).props;
  if (typeof props.callbackUrl === "string") return props.callbackUrl;
  const children = Array.isArray(props.children) ? props.children : [props.children];
  for (const child of children) {
    const found = formCallback(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

const render = (callbackUrl: string) => LoginPage({ searchParams: Promise.resolve({ callbackUrl }) });

/** Where the page redirects a signed-in visitor (Next's redirect() throws with the target in its digest). */
async function redirectOf(callbackUrl: string): Promise<string> {
  const error = await render(callbackUrl).then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  const digest = error?.digest ?? "";
  expect(digest.startsWith("NEXT_REDIRECT;")).toBe(true);
  return digest.split(";")[2] ?? "";
}

// As the browser sends them: /login?callbackUrl=/%09/evil.example and so on, decoded once by Next.
const HOSTILE = [
  "/%09/evil.example",
  "/%0A/evil.example",
  "/%0D/evil.example",
  "/%5C/evil.example",
  "%2F%2Fevil.example",
  "/%2F/evil.example",
  "https%3A%2F%2Fevil.example",
  "javascript%3Aalert(1)",
].map(decodeURIComponent);

describe("the login page's callbackUrl", () => {
  beforeEach(() => {
    signedIn = false;
  });

  it.each(HOSTILE)("hands the form the home page for %j", async (value) => {
    expect(formCallback(await render(value))).toBe("/");
  });

  it("hands the form a path on the app as it is", async () => {
    expect(formCallback(await render("/pulls?stage=WON"))).toBe("/pulls?stage=WON");
  });

  it.each(HOSTILE)("sends a signed-in visitor home for %j, with a header that cannot break", async (value) => {
    signedIn = true;
    expect(await redirectOf(value)).toBe("/");
  });
});
