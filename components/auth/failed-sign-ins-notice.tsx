import type { FailedSignIn } from "@/lib/audit/audit-log";
import { RelativeTime } from "@/components/ui/relative-time";

// Shown to a signed-in user when someone failed to sign in to their account since their sign-in
// before this one: how many times, when and from where, so that they can tell an admin if it
// was not them.
export function FailedSignInsNotice({ total, recent }: { total: number; recent: FailedSignIn[] }) {
  if (total === 0) return null;
  return (
    <section
      aria-label="Failed sign-ins on your account"
      data-testid="failed-sign-ins"
      className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="font-medium">
        {total === 1 ? "1 failed sign-in attempt" : `${total} failed sign-in attempts`} on your account since your
        previous sign-in. If that was not you, tell an admin.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {recent.map((attempt) => (
          <li key={attempt.at.toISOString() + (attempt.address ?? "")}>
            <RelativeTime iso={attempt.at.toISOString()} /> from {attempt.address ?? "an unknown address"}
          </li>
        ))}
      </ul>
      {total > recent.length ? <p className="mt-1 text-xs">and {total - recent.length} earlier.</p> : null}
    </section>
  );
}
