import type { Routes } from "../context";
import { policyCheckRoutes } from "./policy-check";
import { policyFormRoutes } from "./policy-forms";
import { policySearchRoutes } from "./policy-search";
import { servicingConfirmRoutes } from "./servicing-confirm";
import { servicingRoutes } from "./servicings";
import { widgetsRoutes } from "./widgets";

// The route families beyond pulls and monitorings: the agency's links, servicing, policy
// check, policy search and policy forms. Kept in one list so the server registers them at once.

/** Team routes: Basic auth, under /teams/{teamId} and bare. */
export const TEAM_FAMILY_ROUTES: Routes[] = [
  widgetsRoutes,
  servicingRoutes,
  policyCheckRoutes,
  policySearchRoutes,
  policyFormRoutes,
];
/** The consumer's servicing confirmation: no team prefix, authorised by its pull-jwt. */
export const PUBLIC_FAMILY_ROUTES: Routes[] = [servicingConfirmRoutes];
