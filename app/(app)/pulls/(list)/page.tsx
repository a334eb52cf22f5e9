import type { Metadata } from "next";
import { z } from "zod";
import { PullTable } from "@/components/pulls/pull-table";
import { Pagination } from "@/components/ui/pagination";
import { getDb } from "@/db/client";
import { requirePermission } from "@/lib/auth/session";
import { listPulls, PULL_PAGE_SIZE } from "@/lib/pulls/queries";

export const metadata: Metadata = { title: "Linked accounts" };

const searchSchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1) });

export default async function PullsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("pulls:view");
  const { page } = searchSchema.parse(await searchParams);
  const { rows, total } = await listPulls(await getDb(), { page });
  const pageCount = Math.max(1, Math.ceil(total / PULL_PAGE_SIZE));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-slate-900">Linked accounts</h1>
        <p className="text-sm text-slate-600" data-testid="pull-count">
          {total === 1 ? "1 linked account" : `${total.toLocaleString("en-US")} linked accounts`}
        </p>
      </div>
      {rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">
          <p className="font-medium">{total === 0 ? "No linked accounts yet." : "Nothing on this page."}</p>
          <p className="mt-1 text-sm">
            {total === 0 ? "Accounts appear here as soon as a consumer links one and the service tells us." : "Go back to the first page."}
          </p>
        </div>
      ) : (
        <PullTable rows={rows} />
      )}
      <Pagination page={page} pageCount={pageCount} basePath="/pulls" />
    </div>
  );
}
