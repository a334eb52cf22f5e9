// POST /api/sign-in/passkey — the second sign-in step with a passkey: the options to sign (email and password again)
import { passkeySignInOptions } from "@/lib/auth/credentials";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { throttledError } from "@/lib/security/sign-in-errors";

export const dynamic = "force-dynamic";

// Public like next-auth's own endpoint, and guarded the same way: the password, checked under
// sign-in's throttle (lib/auth/credentials.ts). A wrong password and an unknown email answer alike.
export async function POST(request: Request) {
  const text = await request.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text.length <= 2_000 ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const config = env();
  const outcome = await passkeySignInOptions(await getDb(), body, {
    demoMode: config.demoMode,
    address: clientAddress(request.headers),
  });
  switch (outcome.status) {
    case "options":
      return Response.json({ options: outcome.options });
    case "no-passkey":
      return Response.json({ error: "NO_PASSKEY" }, { status: 404 });
    case "throttled":
      return Response.json({ error: throttledError(outcome.retryAfterSeconds) }, { status: 429 });
    case "refused":
      return Response.json({ error: "REFUSED" }, { status: 401 });
  }
}
