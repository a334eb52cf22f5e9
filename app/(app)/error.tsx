"use client";

import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

// A failure while rendering a page: say so plainly and offer a retry, never a stack trace.
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-800">
      <PageHeader title="Something went wrong loading this page." tone="alert" />
      <p className="mt-1 text-sm">Your data is safe. Try again; if it keeps happening, tell an admin.</p>
      <Button variant="danger" onClick={reset} className="mt-4">
        Try again
      </Button>
    </div>
  );
}
