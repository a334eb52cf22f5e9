import type { Metadata } from "next";
import { AssignmentForm } from "@/components/admin/assignment-form";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { loadAssignmentSettingsPage } from "@/lib/loaders/assignment-settings";
import { saveAssignmentAction } from "./actions";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Automatic assignment" };

export default async function AssignmentSettingsPage() {
  await requirePermission("settings:manage");
  const { settings, people, offices, linesOfBusiness } = await loadAssignmentSettingsPage(await getDb());
  return (
    <div className="space-y-4">
      <PageHeader title="Automatic assignment" />
      <p className="text-sm text-slate-600">
        A pull is assigned once, when it first succeeds. People can reassign it afterwards; every automatic assignment
        is in the audit trail.
      </p>
      <AssignmentForm
        mode={settings.mode}
        rules={settings.rules}
        fallbackAssigneeId={settings.fallbackAssigneeId}
        people={people}
        offices={offices}
        linesOfBusiness={linesOfBusiness}
        action={saveAssignmentAction}
      />
    </div>
  );
}
