import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { can } from "@/lib/auth/permissions";
import { ADMIN_SECTIONS, adminSectionsFor } from "./admin-sections";

// The header shows one "Admin" link; /admin lists the admin pages. A new admin page that is not
// listed could only be reached by its address, so every page under app/(app)/admin that asks a
// permission must be in a section, under the permission it asks.

const ADMIN_DIR = join(process.cwd(), "app/(app)/admin");
/** Admin pages on purpose unlisted: the bench's floor, a page that reads nothing (bench/run.ts). */
const UNLISTED = new Set(["/admin/bench-floor"]);
const listed = new Map(ADMIN_SECTIONS.flatMap((s) => s.pages).map((page) => [page.href, page.permission]));

describe("the admin sections", () => {
  it("list every admin page under the permission the page asks", () => {
    const pages = readdirSync(ADMIN_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ADMIN_DIR, entry.name, "page.tsx")))
      .map((entry) => ({
        href: `/admin/${entry.name}`,
        asks: readFileSync(join(ADMIN_DIR, entry.name, "page.tsx"), "utf8").match(
          /requirePermission\("([^"]+)"\)/,
        )?.[1],
      }))
      .filter((page) => page.asks !== undefined && !UNLISTED.has(page.href));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect([page.href, listed.get(page.href)]).toEqual([page.href, page.asks]);
  });

  it("show an admin every section, and a manager or an agent none", () => {
    expect(adminSectionsFor((action) => can({ role: "ADMIN" }, action))).toHaveLength(ADMIN_SECTIONS.length);
    expect(adminSectionsFor((action) => can({ role: "MANAGER" }, action))).toEqual([]);
    expect(adminSectionsFor((action) => can({ role: "AGENT" }, action))).toEqual([]);
  });

  it("drop a section none of whose pages the user may open", () => {
    const onlyJobs = adminSectionsFor((action) => action === "jobs:manage");
    expect(onlyJobs.map((s) => s.title)).toEqual(["Operations"]);
  });
});
