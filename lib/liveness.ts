import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";

// What the liveness probe (GET /api/health) asks: can this process reach its database? Opening
// the database (first start: migrations) counts; a failure is a plain no, its reason stays here.

export async function databaseReachable(): Promise<boolean> {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
