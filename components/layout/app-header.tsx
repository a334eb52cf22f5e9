import Link from "next/link";
import type { Actor } from "@/lib/core/actor";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { can, type Action } from "@/lib/auth/permissions";

/** The menu after My pulls, Linked accounts and Alerts (which carry counts): each entry shows to those its permission allows. */
const MENU: { href: string; label: string; permission?: Action }[] = [
  { href: "/xdates", label: "X-dates", permission: "xdates:view" },
  { href: "/cross-sell", label: "Cross-sell", permission: "cross-sell:view" },
  { href: "/reconnect", label: "Reconnect" },
  { href: "/reports", label: "Reports", permission: "reports:view" },
  { href: "/admin/users", label: "Users", permission: "users:manage" },
  { href: "/admin/assignment", label: "Assignment", permission: "settings:manage" },
  { href: "/admin/rules", label: "Rules", permission: "rules:manage" },
  { href: "/admin/audit", label: "Audit", permission: "audit:view" },
  { href: "/admin/incident", label: "Incident", permission: "incident:view" },
  { href: "/admin/retention", label: "Retention", permission: "retention:manage" },
  { href: "/admin/privacy", label: "Privacy", permission: "privacy:manage" },
  { href: "/admin/api-keys", label: "API keys", permission: "api-keys:manage" },
  { href: "/admin/webhooks", label: "Webhooks", permission: "webhooks:manage" },
  { href: "/admin/agencyzoom", label: "AgencyZoom", permission: "agencyzoom:manage" },
  { href: "/events", label: "Events", permission: "events:view" },
  { href: "/admin/service", label: "Service", permission: "service:manage" },
  { href: "/admin/jobs", label: "Jobs", permission: "jobs:manage" },
];

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
              {MENU.filter((item) => !item.permission || can(user, item.permission)).map((item) => (
                <Link key={item.href} href={item.href} className="text-slate-700 hover:text-brand-700">
                  {item.label}
                </Link>
              ))}
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
