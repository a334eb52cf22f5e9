import { isValidElement, type ReactElement } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { securitySettings, userPasskeys, userSessions, users } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "@/test/database";

// The security page as the server renders it: signed out, it sends the visitor to sign in;
// signed in, it shows the user's own set-up and nobody else's.

let current: { id: string; sessionId: string } | null = null;
vi.mock("next-auth", () => ({
  getServerSession: async () => (current ? { user: { id: current.id }, sessionId: current.sessionId } : null),
  default: () => null,
}));

// The app's database client is this test's database, before any module caches another.
const database: TestDatabase = await createTestDatabase();
(globalThis as unknown as { __coverdeskDb?: { connection?: Promise<unknown> } }).__coverdeskDb = {
  connection: Promise.resolve(database),
};
const people: Record<"owner" | "other", { id: string; sessionId: string }> = {
  owner: { id: "", sessionId: "" },
  other: { id: "", sessionId: "" },
};

beforeAll(async () => {
  for (const who of ["owner", "other"] as const) {
    const [user] = await database.db
      .insert(users)
      .values({ email: `${who}@page.test`, name: who, role: "AGENT", passwordHash: "x" })
      .returning({ id: users.id });
    const [session] = await database.db
      .insert(userSessions)
      .values({ userId: user?.id ?? "", expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: userSessions.id });
    people[who] = { id: user?.id ?? "", sessionId: session?.id ?? "" };
  }
});
afterAll(async () => {
  await database.close();
});

const { default: AccountSecurityPage } = await import("./page");
const { getSecondFactor, startSecondFactor } = await import("@/lib/auth/second-factor");

/** Every text and prop value in the rendered tree, as one string. */
function textOf(node: unknown): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join(" ");
  if (!isValidElement(node)) return "";
  const props = (node as ReactElement<Record<string, unknown>>).props;
  return Object.entries(props)
    .map(([key, value]) => (key === "children" ? textOf(value) : typeof value === "string" ? value : ""))
    .join(" ");
}

describe("/account/security", () => {
  it("sends a signed-out visitor to the login page", async () => {
    current = null;
    const error = (await AccountSecurityPage().then(
      () => null,
      (e: unknown) => e,
    )) as { digest?: string } | null;
    expect(error?.digest).toMatch(/^NEXT_REDIRECT;.*;\/login;/);
  });

  it("offers to set up an app, then shows the caller's own key and QR code, never another's", async () => {
    current = people.owner;
    expect(textOf(await AccountSecurityPage())).toContain("Off.");
    await startSecondFactor(database.db, { id: people.owner.id, name: "owner", role: "AGENT" });
    await startSecondFactor(database.db, { id: people.other.id, name: "other", role: "AGENT" });
    const own = await getSecondFactor(database.db, people.owner.id);
    const other = await getSecondFactor(database.db, people.other.id);
    if (own.state !== "pending" || other.state !== "pending") throw new Error("not pending");
    const shown = textOf(await AccountSecurityPage());
    expect(shown.replace(/ /g, "")).toContain(own.secret);
    expect(shown.replace(/ /g, "")).not.toContain(other.secret);
    expect(shown).toContain("data:image/svg+xml;base64,");
  });

  /** The props of the first element in the tree whose `testId` prop is `testId`. */
  function propsWithTestId(node: unknown, testId: string): Record<string, unknown> | null {
    if (Array.isArray(node)) {
      for (const child of node) {
        const found = propsWithTestId(child, testId);
        if (found) return found;
      }
      return null;
    }
    if (!isValidElement(node)) return null;
    const props = (node as ReactElement<Record<string, unknown>>).props;
    return props.testId === testId ? props : propsWithTestId(props.children, testId);
  }

  it("lists the caller's own passkeys only", async () => {
    current = people.owner;
    await database.db.insert(userPasskeys).values([
      { userId: people.owner.id, credentialId: "own-key", publicKey: "x", name: "Owner's laptop" },
      { userId: people.other.id, credentialId: "their-key", publicKey: "x", name: "Other's phone" },
    ]);
    const table = propsWithTestId(await AccountSecurityPage(), "passkeys");
    expect((table?.rows as Array<{ name: string }>).map((row) => row.name)).toEqual(["Owner's laptop"]);
  });

  it("tells a user who owes a second factor to set one up first, and still shows them the page", async () => {
    current = people.other;
    await database.db.delete(userPasskeys);
    await database.db.insert(securitySettings).values({ id: 1, secondFactorRequired: true });
    const shown = textOf(await AccountSecurityPage());
    expect(shown).toContain("Your agency requires a second factor. Set one up below to continue");
    current = people.owner;
    await database.db
      .insert(userPasskeys)
      .values({ userId: people.owner.id, credentialId: "own-key", publicKey: "x", name: "Laptop" });
    const owner = textOf(await AccountSecurityPage());
    expect(owner).not.toContain("Set one up below to continue");
    expect(owner).toContain("Your agency requires a second factor for everyone.");
  });
});
