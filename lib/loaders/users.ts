import "server-only";
import type { Db } from "@/db/types";
import { recentFailedSignIns } from "@/lib/audit/audit-log";
import { listAllUsers } from "@/lib/users/queries";

/** The users page: everyone (active or not), the active ones (to hand pulls over to), and recent failed sign-ins. */
export async function loadUsersPage(db: Db) {
  const [people, failedSignIns] = await Promise.all([listAllUsers(db), recentFailedSignIns(db, 20)]);
  return { people, active: people.filter((p) => p.isActive), failedSignIns };
}
