import type { Role } from "@/db/schema";

/** Whoever acts: a signed-in user as the session resolved them (role read fresh from the DB). */
export type Actor = {
  id: string;
  name: string;
  role: Role;
  /** The actor's own session, when they act through one (kept when they change their own password). */ sessionId?: string;
};
