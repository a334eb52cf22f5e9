import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";
import type { Metadata } from "next";
import {
  CreateUserForm,
  DeactivateForm,
  ResetPasswordForm,
  ResetSecondFactorForm,
  RoleForm,
  SecondFactorRequirementForm,
} from "@/components/admin/user-forms";
import { Card } from "@/components/ui/card";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { loadUsersPage } from "@/lib/loaders/users";
import {
  createUserAction,
  deactivateUserAction,
  resetPasswordAction,
  resetSecondFactorAction,
  saveSecondFactorRequirementAction,
  updateUserAction,
} from "./actions";
import { RelativeTime } from "@/components/ui/relative-time";
import { PageHeader } from "@/components/ui/page-header";
import { UserOfficeForm } from "@/components/admin/office-forms";
import { setUserOfficeAction } from "../offices/actions";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await requirePermission("users:manage");
  const { people, active, offices, requirement, withoutSecondFactor, failedSignIns } = await loadUsersPage(
    await getDb(),
  );

  return (
    <div className="space-y-4">
      <PageHeader title="Users" />
      <Card aria-labelledby="second-factor-rule-heading" className="space-y-2" data-testid="second-factor-rule">
        <h2 id="second-factor-rule-heading" className="text-lg font-semibold text-slate-900">
          Second factor
        </h2>
        <p className="text-sm text-slate-700" data-testid="second-factor-rule-state">
          {requirement.required
            ? "Required: a user without a second factor is sent to set one up before anything else."
            : "Not required: each user chooses whether to set one up."}{" "}
          {requirement.forcedByProduction
            ? "Production always requires it (set COVERDESK_MFA_REQUIRED=false to leave it to this setting)."
            : requirement.optedOut
              ? "This server was started with COVERDESK_MFA_REQUIRED=false, so production leaves it to this setting."
              : null}{" "}
          {withoutSecondFactor === 0
            ? "Every active user has one."
            : `${withoutSecondFactor} active user${withoutSecondFactor === 1 ? " has" : "s have"} none yet.`}
        </p>
        <SecondFactorRequirementForm required={requirement.setting} action={saveSecondFactorRequirementAction} />
      </Card>
      <CreateUserForm action={createUserAction} />
      <DataTable
        label="Users"
        rows={people}
        rowKey={(person) => person.id}
        rowTestId="user-row"
        columns={[
          {
            header: "Name",
            cell: (person) => (
              <>
                <div className="font-medium text-slate-900">{person.name}</div>
                <div className="text-xs text-slate-500">
                  {person.email} · since <RelativeTime iso={person.createdAt.toISOString()} />
                </div>
              </>
            ),
          },
          {
            header: "Role",
            cell: (person) =>
              person.isActive ? (
                <RoleForm userId={person.id} role={person.role} action={updateUserAction} />
              ) : (
                person.role
              ),
          },
          ...(offices.length > 0
            ? [
                {
                  header: "Office",
                  cell: (person: (typeof people)[number]) => (
                    <UserOfficeForm
                      userId={person.id}
                      officeId={person.officeId}
                      offices={offices}
                      action={setUserOfficeAction}
                    />
                  ),
                },
              ]
            : []),
          {
            header: "Password",
            cell: (person) =>
              person.isActive ? <ResetPasswordForm userId={person.id} action={resetPasswordAction} /> : null,
          },
          {
            header: "Second factor",
            cell: (person) => (
              <div className="flex flex-col gap-1">
                <span className="text-xs text-slate-600" data-testid="second-factor-state">
                  {person.secondFactor
                    ? [
                        person.secondFactor.totp ? "Authenticator app" : null,
                        person.secondFactor.passkeys > 0
                          ? `${person.secondFactor.passkeys} passkey${person.secondFactor.passkeys === 1 ? "" : "s"}`
                          : null,
                      ]
                        .filter(Boolean)
                        .join(", ")
                    : "None"}
                </span>
                {person.isActive && person.secondFactor ? (
                  <ResetSecondFactorForm userId={person.id} name={person.name} action={resetSecondFactorAction} />
                ) : null}
              </div>
            ),
          },
          {
            header: "Access",
            cell: (person) =>
              person.isActive ? (
                <DeactivateForm userId={person.id} colleagues={active} action={deactivateUserAction} />
              ) : (
                <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600">Deactivated</span>
              ),
          },
        ]}
      />
      <section aria-labelledby="failed-sign-ins-heading" className="space-y-2">
        <div className="flex items-baseline justify-between">
          <h2 id="failed-sign-ins-heading" className="text-lg font-semibold text-slate-900">
            Recent failed sign-ins
          </h2>
          <Link href="/admin/audit?action=SIGN_IN_FAILED" className={cn(LINK_CLASS, "text-sm")}>
            All of them in the audit trail
          </Link>
        </div>
        <DataTable
          label="Recent failed sign-ins"
          testId="failed-sign-ins-table"
          rows={failedSignIns}
          rowKey={(attempt, index) => `${attempt.at.toISOString()}-${index}`}
          empty={<p className="text-sm text-slate-600">No failed sign-ins: every recent attempt got in.</p>}
          columns={[
            {
              header: "When",
              className: "tabular-nums",
              cell: (attempt) => <RelativeTime iso={attempt.at.toISOString()} />,
            },
            {
              header: "Account",
              cell: (attempt) => attempt.email ?? <span className="text-slate-500">no such account</span>,
            },
            { header: "From", className: "font-mono text-xs", cell: (attempt) => attempt.address ?? "unknown" },
          ]}
        />
      </section>
    </div>
  );
}
