import "server-only";
import type { Db } from "@/db/types";
import { listPullFilterOptions } from "@/lib/pulls/queries";
import { listOffices } from "@/lib/users/offices";
import { listActiveUsers } from "@/lib/users/queries";
import { getAssignmentSettings } from "@/lib/workflow/auto-assign";

/** The automatic assignment page: the settings, who can be assigned, and every line of business known (in pulls or in a rule). */
export async function loadAssignmentSettingsPage(db: Db) {
  const [settings, people, options, offices] = await Promise.all([
    getAssignmentSettings(db),
    listActiveUsers(db),
    listPullFilterOptions(db, { kind: "all" }),
    listOffices(db),
  ]);
  const linesOfBusiness = [
    ...new Set([
      ...options.policyTypes,
      ...settings.rules.map((r) => r.lineOfBusiness).filter((l): l is string => Boolean(l)),
    ]),
  ].sort();
  return { settings, people, offices: offices.map((o) => ({ id: o.id, name: o.name })), linesOfBusiness };
}
