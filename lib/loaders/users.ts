import "server-only";
import type { Db } from "@/db/types";
import { recentFailedSignIns } from "@/lib/audit/audit-log";
import { listSecondFactorsByUser } from "@/lib/auth/second-factor";
import { getSecondFactorRequirement } from "@/lib/auth/second-factor-requirement";
import { listOffices } from "@/lib/users/offices";
import { listAllUsers } from "@/lib/users/queries";

/**
 * The users page: everyone (active or not) with their second factors and office, the active ones
 * (to hand pulls over to), the offices, whether a second factor is required, and recent failed sign-ins.
 */
export async function loadUsersPage(db: Db) {
  const [all, factors, requirement, failedSignIns, offices] = await Promise.all([
    listAllUsers(db),
    listSecondFactorsByUser(db),
    getSecondFactorRequirement(db),
    recentFailedSignIns(db, 20),
    listOffices(db),
  ]);
  const people = all.map((person) => ({
    ...person,
    secondFactor: factors.get(person.id) ?? null,
  }));
  return {
    people,
    active: people.filter((p) => p.isActive),
    /** The offices a user may be put in (the Office column shows when the agency has any). */
    offices: offices.map((o) => ({ id: o.id, name: o.name })),
    requirement,
    withoutSecondFactor: people.filter((p) => p.isActive && !p.secondFactor).length,
    failedSignIns,
  };
}
