// GET /api/privacy/requests/[requestId]/export?format=json|pdf — everything held on a request's
// consumer, for them; admins only, each export on the audit trail with its recipient and purpose.
import { z } from "zod";
import { notFoundJson, withUser } from "@/lib/auth/route-guard";
import { exportPrivacyRequest } from "@/lib/privacy/export";

export const dynamic = "force-dynamic";

const params = z.object({ requestId: z.uuid() });
const formatOf = (url: string) => (new URL(url).searchParams.get("format") === "pdf" ? "pdf" : "json");

export const GET = withUser(
  "privacy:manage",
  async ({ request, user, params, db }) => {
    const made = await exportPrivacyRequest(db, user, params.requestId, formatOf(request.url));
    if (!made.ok) return made.code === "NOT_FOUND" ? notFoundJson() : Response.json(made, { status: 409 });
    const { bytes, contentType, filename } = made.file;
    return new Response(Buffer.from(bytes), {
      headers: {
        "content-type": contentType,
        "content-disposition": `attachment; filename="${filename}"`,
        "content-length": String(bytes.byteLength),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
  { params },
);
