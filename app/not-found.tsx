import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-4 text-center">
      <PageHeader title="Not found" />
      <p className="mt-2 text-slate-600">This page does not exist, or you do not have access to it.</p>
      <Link href="/pulls" className={buttonClass({ size: "lg", className: "mt-6" })}>
        Back to linked accounts
      </Link>
    </main>
  );
}
