import type { Role } from "@/db/schema";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null };
    /** The server-side session (user_sessions) this cookie stands for. */
    sessionId?: string;
  }
  interface User {
    id: string;
    email: string;
    name: string;
    role: Role;
    sessionId?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    role?: Role;
    /** The user_sessions row this token stands for: checked on every request. */
    sid?: string;
  }
}
