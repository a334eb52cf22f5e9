import type { Metadata } from "next";
import { CreateUserForm, DeactivateForm, ResetPasswordForm, RoleForm } from "@/components/admin/user-forms";
import { getDb } from "@/db/client";
import { requirePermission } from "@/lib/auth/session";
import { formatInstant } from "@/lib/format";
import { listAllUsers } from "@/lib/users/queries";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await requirePermission("users:manage");
  const people = await listAllUsers(await getDb());
  const active = people.filter((p) => p.isActive);

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Users</h1>
      <CreateUserForm />
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">Name</th>
              <th scope="col" className="px-3 py-2">Role</th>
              <th scope="col" className="px-3 py-2">Password</th>
              <th scope="col" className="px-3 py-2">Access</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {people.map((person) => (
              <tr key={person.id} className="align-top" data-testid="user-row">
                <td className="px-3 py-2">
                  <div className="font-medium text-slate-900">{person.name}</div>
                  <div className="text-xs text-slate-500">{person.email} · since {formatInstant(person.createdAt)}</div>
                </td>
                <td className="px-3 py-2">{person.isActive ? <RoleForm userId={person.id} role={person.role} /> : person.role}</td>
                <td className="px-3 py-2">{person.isActive ? <ResetPasswordForm userId={person.id} /> : null}</td>
                <td className="px-3 py-2">
                  {person.isActive ? <DeactivateForm userId={person.id} colleagues={active} /> : <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">Deactivated</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
