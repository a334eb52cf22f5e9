// GET /api/pulls/[pullId]/version — a fingerprint of what the pull page shows (data, login
// state, pipeline, monitoring), polled by an open page so it refreshes itself when it changes.
import { z } from "zod";
import { userAllowedTo } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { getViewablePullVersion } from "@/lib/pulls/page-version";

export const dynamic = "force-dynamic";

const notFound = () => Response.json({ error: "NOT_FOUND" }, { status: 404 });

export async function GET(_request: Request, context: { params: Promise<{ pullId: string }> }) {
  const pullId = z.uuid().safeParse((await context.params).pullId);
  if (!pullId.success) return notFound();
  const user = await userAllowedTo("pulls:view");
  if (!user) return notFound();
  const version = await getViewablePullVersion(await getDb(), user, pullId.data);
  if (version === null) return notFound();
  return Response.json({ version }, { headers: { "cache-control": "no-store" } });
}
