import { isValidElement, type ReactElement } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { userSessions, users } from "@/db/schema";
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
});
