import type { Action } from "@/lib/auth/permissions";

// The admin pages, grouped by what an admin comes to do: the header shows one "Admin" link, and
// /admin lists these sections, each page shown to those its permission allows (the page itself
// asks the same permission on the server).

export type AdminPage = { href: string; label: string; description: string; permission: Action };
export type AdminSection = { title: string; pages: AdminPage[] };

export const ADMIN_SECTIONS: AdminSection[] = [
  {
    title: "People and access",
    pages: [
      {
        href: "/admin/users",
        label: "Users",
        description: "Add people, set their role, deactivate them, reset a password or a second factor.",
        permission: "users:manage",
      },
      {
        href: "/admin/offices",
        label: "Offices",
        description: "The agency's offices: managers and agents see their office's pulls.",
        permission: "offices:manage",
      },
      {
        href: "/admin/assignment",
        label: "Assignment",
        description: "Who new linked accounts go to: by link, in turn, or to the queue.",
        permission: "settings:manage",
      },
    ],
  },
  {
    title: "The agency's rules",
    pages: [
      {
        href: "/admin/rules",
        label: "Rules",
        description: "Alerts, the daily digest, renewal lead time, the refresh budget and speed to lead.",
        permission: "rules:manage",
      },
      {
        href: "/admin/review",
        label: "Coverage review",
        description: "The rules of the household review: what counts as a finding.",
        permission: "rules:manage",
      },
      {
        href: "/admin/policy-check",
        label: "Policy check",
        description: "The service's policy check: the rules it runs on every new pull.",
        permission: "rules:manage",
      },
    ],
  },
  {
    title: "Compliance",
    pages: [
      {
        href: "/admin/audit",
        label: "Audit",
        description: "Every read, export and change, by whom and when.",
        permission: "audit:view",
      },
      {
        href: "/admin/incident",
        label: "Incident",
        description: "Whose data a user, a session or an address saw in a window; disclosures of driver data.",
        permission: "incident:view",
      },
      {
        href: "/admin/retention",
        label: "Retention",
        description: "How long each kind of record is kept, its dry run, and legal holds.",
        permission: "retention:manage",
      },
      {
        href: "/admin/privacy",
        label: "Privacy",
        description: "Consumers' requests for a copy of their data or its erasure, with their 45-day clock.",
        permission: "privacy:manage",
      },
    ],
  },
  {
    title: "Connections",
    pages: [
      {
        href: "/admin/service",
        label: "Service",
        description: "The data-link service: credentials, links and the webhooks it sends here.",
        permission: "service:manage",
      },
      {
        href: "/events",
        label: "Events",
        description: "The service's webhooks as they arrived, and what became of each.",
        permission: "events:view",
      },
      {
        href: "/admin/api-keys",
        label: "API keys",
        description: "Keys for other systems to read and update linked accounts through /api/v1.",
        permission: "api-keys:manage",
      },
      {
        href: "/admin/webhooks",
        label: "Webhooks",
        description: "Endpoints that hear of new pulls, stage changes, assignments and alerts; their deliveries.",
        permission: "webhooks:manage",
      },
      {
        href: "/admin/agencyzoom",
        label: "AgencyZoom",
        description: "Sending pulls to AgencyZoom as leads: the connection, what a lead assumes, who is who there.",
        permission: "agencyzoom:manage",
      },
    ],
  },
  {
    title: "Operations",
    pages: [
      {
        href: "/admin/jobs",
        label: "Jobs",
        description: "The scheduled work, its last runs, and a run now.",
        permission: "jobs:manage",
      },
    ],
  },
];

/** The sections as this user sees them: only pages they may open, only sections with one. */
export function adminSectionsFor(allowed: (action: Action) => boolean): AdminSection[] {
  return ADMIN_SECTIONS.map((section) => ({
    ...section,
    pages: section.pages.filter((page) => allowed(page.permission)),
  })).filter((section) => section.pages.length > 0);
}
