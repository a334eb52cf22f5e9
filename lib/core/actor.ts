import type { Role } from "@/db/schema";

/**
 * Whoever acts: the one shape of "the user doing this". Every guard hands it on (pages, route
 * handlers, server actions: the signed-in user as the session resolved them, role read fresh
 * from the database), every command and query that asks who is asking receives it, and the
 * audit trail records it. A test, the bench or a script builds one for a user of its own.
 * Code that needs only the role (and the id, for a pull's scope) takes `Pick<Actor, …>`.
 */
export type Actor = {
  id: string;
  name: string;
  role: Role;
  /**
   * The user's office (null: agency-wide), read fresh with the role. It narrows what a manager or
   * an agent sees (lib/auth/permissions.ts); absent, as for an API key or a script, it is none.
   */
  officeId?: string | null;
  /** The actor's own session, when they act through one (kept when they change their own password). */
  sessionId?: string;
  /** The client's address of the request they act through (lib/security/client-address.ts), for the audit trail. */
  address?: string;
  /**
   * An API key acting (lib/api/keys.ts `apiKeyActor`): `id` is the key's, not a user's, so
   * nothing that names a user (a win's credit) is given to it.
   */
  apiKey?: true;
};
