import "server-only";
import type { ServicingRequestRow } from "@/db/schema";
import type { Db } from "@/db/types";
import type { ServiceConfig } from "@/lib/service/client";
import { getServicing } from "@/lib/service/servicings-api";
import { advanceServicing } from "./progress";
import { isSettled } from "./status";

// Asking the service where an action stands (GET /servicings/{id}), for a page that shows one
// still under way: webhooks may be late, lost, or not enabled on the service's dashboard. The
// answer moves the row forward like any other news; when the service cannot be asked, the page
// shows what we last knew.

/** How long a page waits for the service before it shows what it has. */
const PAGE_WAIT_MS = 2_500;

type Pending = Pick<ServicingRequestRow, "id" | "servicingActionId" | "status">;

export async function refreshServicing(db: Db, service: ServiceConfig, row: Pending): Promise<boolean> {
  if (!row.servicingActionId || isSettled(row.status)) return false;
  const { value } = await getServicing({ ...service, maxAttempts: 1 }, row.servicingActionId);
  if (!value.status) return false;
  return advanceServicing(
    db,
    { id: row.id },
    {
      status: value.status,
      validationErrorType: value.validation_error_type,
      confirmationData: value.confirmation_data,
    },
  );
}

/** Refreshes the unsettled rows, all at once and briefly; true when any moved. Never throws. */
export async function refreshPendingServicings(db: Db, service: ServiceConfig, rows: Pending[]): Promise<boolean> {
  const pending = rows.filter((r) => r.servicingActionId && !isSettled(r.status)).slice(0, 10);
  if (pending.length === 0) return false;
  const quick = { ...service, timeoutMs: Math.min(service.timeoutMs, PAGE_WAIT_MS) };
  const moved = await Promise.allSettled(pending.map((row) => refreshServicing(db, quick, row)));
  return moved.some((m) => m.status === "fulfilled" && m.value);
}
