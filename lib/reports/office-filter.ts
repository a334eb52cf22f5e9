import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "@/db/schema";
import { scopingOffice } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { ReportFilter } from "./report-filter";

// The reports' office filter. The figures are summed by agent (report_rollups), so an office's
// figures are those of the agents now in it: a user who moves office takes their history along.

/** The agent column's figures that belong to people of the office. */
export function agentInOffice(agent: AnyPgColumn | SQL, officeId: string): SQL {
  return sql`${agent} in (select ${users.id} from ${users} where ${users.officeId} = ${officeId})`;
}

/**
 * The filter as this user may ask it: a manager of an office sees their office's figures only,
 * whatever the URL says; an admin (or a user with no office) keeps the office they chose.
 */
export function reportFilterFor(user: Pick<Actor, "role"> & Partial<Pick<Actor, "officeId">>, filter: ReportFilter) {
  const office = scopingOffice(user);
  return office ? { ...filter, office } : filter;
}
