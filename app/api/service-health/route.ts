// GET /api/service-health — whether the data-link service answered this server's last call, polled by the signed-in layout's banner
import { withUser } from "@/lib/auth/route-guard";
import { serviceHealthView } from "@/lib/service/health";

export const dynamic = "force-dynamic";

// Signed-in users only (a 401, which the banner reads as "signed out"); what failed and why stays in the server's log.
export const GET = withUser(
  "signed-in",
  async () => Response.json(serviceHealthView(), { headers: { "cache-control": "no-store" } }),
  {
    refused: () => Response.json({ error: "UNAUTHORIZED" }, { status: 401 }),
  },
);
