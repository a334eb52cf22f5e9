import type { Routes } from "../context";
import { TEAM_AGENTS } from "../data/team";
import { fail, send } from "../http";

// Team route listing the agency's agents (spec 2.6 Agent), the people pulls are assigned to:
//   GET /agents → { agents: [Agent…] }

export const agentRoutes: Routes = async (_ctx, { res, method, path }) => {
  if (path !== "/agents") return false;
  if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
  return send(res, 200, { agents: TEAM_AGENTS });
};
