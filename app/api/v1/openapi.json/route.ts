// GET /api/v1/openapi.json — the OpenAPI 3.1 document of the public API, without auth: it
// describes the routes, never data (lib/api/openapi.ts writes it from the handlers' schemas).
import { buildOpenApiDocument } from "@/lib/api/openapi";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return Response.json(buildOpenApiDocument(new URL(request.url).origin), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}
