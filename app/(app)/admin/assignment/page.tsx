import type { Metadata } from "next";
import { AssignmentForm } from "@/components/admin/assignment-form";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { listPullFilterOptions } from "@/lib/pulls/queries";
import { listActiveUsers } from "@/lib/users/queries";
import { getAssignmentSettings } from "@/lib/workflow/auto-assign";

export const metadata: Metadata = { title: "Automatic assignment" };

export default async function AssignmentSettingsPage() {
  await requirePermission("settings:manage");
  const db = await getDb();
  const [settings, people, options] = await Promise.all([getAssignmentSettings(db), listActiveUsers(db), listPullFilterOptions(db, { kind: "all" })]);
  const lines = [...new Set([...options.policyTypes, ...settings.rules.map((r) => r.lineOfBusiness).filter((l): l is string => Boolean(l))])].sort();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Automatic assignment</h1>
      <p className="text-sm text-slate-600">A pull is assigned once, when it first succeeds. People can reassign it afterwards; every automatic assignment is in the audit trail.</p>
      <AssignmentForm mode={settings.mode} rules={settings.rules} fallbackAssigneeId={settings.fallbackAssigneeId} people={people} linesOfBusiness={lines} />
    </div>
  );
}
