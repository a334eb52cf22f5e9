import Link from "next/link";
import type { Actor } from "@/lib/core/actor";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { can } from "@/lib/auth/permissions";

const ROLE_LABELS = { ADMIN: "Admin", MANAGER: "Manager", AGENT: "Agent" } as const;

export function AppHeader({
  user,
  newAssignments,
  openAlerts,
  enrolling = false,
}: {
  user: Actor;
  newAssignments: number;
  openAlerts: number;
  /** The user must set up a second factor before anything else: no menu, only Security and Sign out. */
  enrolling?: boolean;
}) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <div className="flex items-center gap-6">
          <Link href="/pulls" className="text-lg font-semibold text-brand-900">
            Coverdesk
          </Link>
          {enrolling ? null : (
            <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              <Link href="/my" className="inline-flex items-center gap-1 text-slate-700 hover:text-brand-700">
                My pulls
                {newAssignments > 0 ? (
                  <span
                    className="rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-white"
                    data-testid="new-assignments"
                    aria-label={`${newAssignments} new`}
                  >
                    {newAssignments}
                  </span>
                ) : null}
              </Link>
              <Link href="/pulls" className="text-slate-700 hover:text-brand-700">
                Linked accounts
              </Link>
              {can(user, "alerts:view") ? (
                <Link href="/alerts" className="inline-flex items-center gap-1 text-slate-700 hover:text-brand-700">
                  Alerts
                  {openAlerts > 0 ? (
                    <span
                      className="rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
                      data-testid="open-alerts"
                      aria-label={`${openAlerts} open`}
                    >
                      {openAlerts}
                    </span>
                  ) : null}
                </Link>
              ) : null}
              {can(user, "xdates:view") ? (
                <Link href="/xdates" className="text-slate-700 hover:text-brand-700">
                  X-dates
                </Link>
              ) : null}
              {can(user, "cross-sell:view") ? (
                <Link href="/cross-sell" className="text-slate-700 hover:text-brand-700">
                  Cross-sell
                </Link>
              ) : null}
              <Link href="/reconnect" className="text-slate-700 hover:text-brand-700">
                Reconnect
              </Link>
              {can(user, "reports:view") ? (
                <Link href="/reports" className="text-slate-700 hover:text-brand-700">
                  Reports
                </Link>
              ) : null}
              {can(user, "users:manage") ? (
                <Link href="/admin/users" className="text-slate-700 hover:text-brand-700">
                  Users
                </Link>
              ) : null}
              {can(user, "settings:manage") ? (
                <Link href="/admin/assignment" className="text-slate-700 hover:text-brand-700">
                  Assignment
                </Link>
              ) : null}
              {can(user, "rules:manage") ? (
                <Link href="/admin/rules" className="text-slate-700 hover:text-brand-700">
                  Rules
                </Link>
              ) : null}
              {can(user, "audit:view") ? (
                <Link href="/admin/audit" className="text-slate-700 hover:text-brand-700">
                  Audit
                </Link>
              ) : null}
              {can(user, "incident:view") ? (
                <Link href="/admin/incident" className="text-slate-700 hover:text-brand-700">
                  Incident
                </Link>
              ) : null}
              {can(user, "retention:manage") ? (
                <Link href="/admin/retention" className="text-slate-700 hover:text-brand-700">
                  Retention
                </Link>
              ) : null}
              {can(user, "privacy:manage") ? (
                <Link href="/admin/privacy" className="text-slate-700 hover:text-brand-700">
                  Privacy
                </Link>
              ) : null}
              {can(user, "api-keys:manage") ? (
                <Link href="/admin/api-keys" className="text-slate-700 hover:text-brand-700">
                  API keys
                </Link>
              ) : null}
              {can(user, "webhooks:manage") ? (
                <Link href="/admin/webhooks" className="text-slate-700 hover:text-brand-700">
                  Webhooks
                </Link>
              ) : null}
              {can(user, "events:view") ? (
                <Link href="/events" className="text-slate-700 hover:text-brand-700">
                  Events
                </Link>
              ) : null}
              {can(user, "service:manage") ? (
                <Link href="/admin/service" className="text-slate-700 hover:text-brand-700">
                  Service
                </Link>
              ) : null}
              {can(user, "jobs:manage") ? (
                <Link href="/admin/jobs" className="text-slate-700 hover:text-brand-700">
                  Jobs
                </Link>
              ) : null}
            </nav>
          )}
        </div>
        <div className="flex items-center gap-3 text-sm">
          <span className="text-slate-700">
            {user.name}{" "}
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{ROLE_LABELS[user.role]}</span>
          </span>
          <Link href="/account/security" className="text-slate-700 hover:text-brand-700">
            Security
          </Link>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
