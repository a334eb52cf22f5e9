import "server-only";
import type { Db } from "@/db/types";
import type { AgencyzoomConfig } from "@/lib/env";
import {
  AgencyzoomError,
  fetchAgencyzoomEmployees,
  fetchAgencyzoomPipelines,
  type AgencyzoomEmployee,
  type AgencyzoomPipeline,
} from "@/lib/handoff/agencyzoom-client";
import { getAgencyzoomSettings, type AgencyzoomSettings } from "@/lib/handoff/agencyzoom-settings";
import { listActiveUsers } from "@/lib/users/queries";

// The admin's AgencyZoom page (/admin/agencyzoom): whether AgencyZoom is configured and answers
// (a sign-in and two reads), its pipelines and users to choose from when it does (plain number
// inputs when it does not), the saved assumptions, and Coverdesk's users to map.

export type AgencyzoomPage = {
  /** Null: AGENCYZOOM_BASE_URL is unset; the hand-off is off. */
  connection:
    | { host: string; username: string; reachable: true }
    | { host: string; username: string; reachable: false; error: string }
    | null;
  pipelines: AgencyzoomPipeline[] | null;
  employees: AgencyzoomEmployee[] | null;
  settings: AgencyzoomSettings;
  users: Array<{ id: string; name: string; role: string }>;
};

export async function loadAgencyzoomPage(db: Db, config: AgencyzoomConfig | null): Promise<AgencyzoomPage> {
  const [settings, users] = await Promise.all([getAgencyzoomSettings(db), listActiveUsers(db)]);
  if (!config) return { connection: null, pipelines: null, employees: null, settings, users };
  const host = new URL(config.baseUrl).host;
  // The page waits for these: an AgencyZoom that does not answer costs it 5 seconds at most.
  const quick = { ...config, timeoutMs: Math.min(config.timeoutMs, 5_000) };
  try {
    // One after the other: the first signs in, the second reuses the token.
    const pipelines = await fetchAgencyzoomPipelines(quick);
    const employees = await fetchAgencyzoomEmployees(quick);
    return { connection: { host, username: config.username, reachable: true }, pipelines, employees, settings, users };
  } catch (error) {
    const message = error instanceof AgencyzoomError ? error.message : "AgencyZoom could not be asked.";
    return {
      connection: { host, username: config.username, reachable: false, error: message },
      pipelines: null,
      employees: null,
      settings,
      users,
    };
  }
}
