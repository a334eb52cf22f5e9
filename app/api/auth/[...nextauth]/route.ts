// GET|POST /api/auth/* — next-auth's sign-in, sign-out, session and CSRF endpoints
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(request: Request, context: RouteContext) {
  // next-auth's one-argument form returns a handler that recognises App Router calls.
  const nextAuth = NextAuth(getAuthOptions()) as unknown as (
    request: Request,
    context: RouteContext,
  ) => Promise<Response>;
  return nextAuth(request, context);
}

export { handler as GET, handler as POST };
