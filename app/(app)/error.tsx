"use client";

// A failure while rendering a page: say so plainly and offer a retry, never a stack trace.
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-800">
      <h1 className="text-lg font-semibold">Something went wrong loading this page.</h1>
      <p className="mt-1 text-sm">Your data is safe. Try again; if it keeps happening, tell an admin.</p>
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800"
      >
        Try again
      </button>
    </div>
  );
}
