import type { Metadata } from "next";
import { CreateUserForm, DeactivateForm, ResetPasswordForm, RoleForm } from "@/components/admin/user-forms";
import Link from "next/link";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { formatInstant } from "@/lib/format";
import { loadUsersPage } from "@/lib/users/users-page";
import { createUserAction, deactivateUserAction, resetPasswordAction, updateUserAction } from "./actions";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await requirePermission("users:manage");
  const { people, active, failedSignIns } = await loadUsersPage(await getDb());

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Users</h1>
      <CreateUserForm action={createUserAction} />
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                Name
              </th>
              <th scope="col" className="px-3 py-2">
                Role
              </th>
              <th scope="col" className="px-3 py-2">
                Password
              </th>
              <th scope="col" className="px-3 py-2">
                Access
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {people.map((person) => (
              <tr key={person.id} className="align-top" data-testid="user-row">
                <td className="px-3 py-2">
                  <div className="font-medium text-slate-900">{person.name}</div>
                  <div className="text-xs text-slate-500">
                    {person.email} · since {formatInstant(person.createdAt)}
                  </div>
                </td>
                <td className="px-3 py-2">
                  {person.isActive ? (
                    <RoleForm userId={person.id} role={person.role} action={updateUserAction} />
                  ) : (
                    person.role
                  )}
                </td>
                <td className="px-3 py-2">
                  {person.isActive ? <ResetPasswordForm userId={person.id} action={resetPasswordAction} /> : null}
                </td>
                <td className="px-3 py-2">
                  {person.isActive ? (
                    <DeactivateForm userId={person.id} colleagues={active} action={deactivateUserAction} />
                  ) : (
                    <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">Deactivated</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="failed-sign-ins-heading" className="space-y-2">
        <div className="flex items-baseline justify-between">
          <h2 id="failed-sign-ins-heading" className="text-lg font-semibold text-slate-900">
            Recent failed sign-ins
          </h2>
          <Link href="/admin/audit?action=SIGN_IN_FAILED" className="text-sm text-brand-700 hover:underline">
            All of them in the audit trail
          </Link>
        </div>
        {failedSignIns.length === 0 ? (
          <p className="text-sm text-slate-600">None.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="failed-sign-ins-table">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    When
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Account
                  </th>
                  <th scope="col" className="px-3 py-2">
                    From
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {failedSignIns.map((attempt, index) => (
                  <tr key={`${attempt.at.toISOString()}-${index}`}>
                    <td className="px-3 py-2 tabular-nums">
                      <time dateTime={attempt.at.toISOString()}>{formatInstant(attempt.at)}</time>
                    </td>
                    <td className="px-3 py-2">
                      {attempt.email ?? <span className="text-slate-500">no such account</span>}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs">{attempt.address ?? "unknown"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
