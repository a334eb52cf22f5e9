import type { User } from "@/db/schema";

/**
 * The signed-in user: the one shape every guard hands on (pages, route handlers, server
 * actions) and every command receives as its actor. Other user shapes in lib/auth derive
 * from it (lib/auth/credentials.ts `AuthenticatedUser` is this before a session exists).
 * A module of its own, so the permission table and the password check can name it without
 * importing the session code that imports them.
 */
export type SessionUser = Pick<User, "id" | "email" | "name" | "role"> & {
  /** The server-side session of this request. */ sessionId: string;
};
