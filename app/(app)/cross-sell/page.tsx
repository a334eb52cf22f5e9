import type { Metadata } from "next";
import { CrossSellView } from "@/components/review/cross-sell-view";
import { requirePermission } from "@/lib/auth/session";
import { withReadDb } from "@/lib/database";
import { loadCrossSellPage } from "@/lib/loaders/cross-sell";

export const metadata: Metadata = { title: "Cross-sell" };

// GET /cross-sell — households across the book with cross-sell gaps, by premium in play.
export default async function CrossSellPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, params] = await Promise.all([requirePermission("cross-sell:view"), searchParams]);
  // Read from a replica when one has replayed this user's last write (lib/replicas/).
  const data = await withReadDb((db) => loadCrossSellPage(db, user, params));
  return <CrossSellView data={data} userId={user.id} />;
}
