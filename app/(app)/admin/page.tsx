import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { adminSectionsFor } from "@/components/layout/admin-sections";
import { Card } from "@/components/ui/card";
import { LINK_CLASS } from "@/components/ui/link-class";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/permissions";
import { requireUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Admin" };
export const dynamic = "force-dynamic";

// GET /admin — the admin pages in sections; each page still asks its own permission.
export default async function AdminPage() {
  const user = await requireUser();
  const sections = adminSectionsFor((action) => can(user, action));
  if (sections.length === 0) notFound();
  return (
    <div className="space-y-6">
      <PageHeader title="Admin" description="The agency's settings, its compliance records and its connections." />
      <div className="grid gap-4 md:grid-cols-2">
        {sections.map((section) => (
          <Card key={section.title} padded>
            <h2 className="mb-3 text-sm font-semibold text-slate-900">{section.title}</h2>
            <nav aria-label={section.title}>
              <ul className="space-y-3">
                {section.pages.map((page) => (
                  <li key={page.href}>
                    <Link href={page.href} className={`${LINK_CLASS} font-medium`}>
                      {page.label}
                    </Link>
                    <p className="text-sm text-slate-600">{page.description}</p>
                  </li>
                ))}
              </ul>
            </nav>
          </Card>
        ))}
      </div>
    </div>
  );
}
