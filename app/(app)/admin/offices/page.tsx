import type { Metadata } from "next";
import { CreateOfficeForm, DeleteOfficeForm, RenameOfficeForm } from "@/components/admin/office-forms";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/lib/database";
import { requirePermission } from "@/lib/auth/session";
import { listOffices } from "@/lib/users/offices";
import { createOfficeAction, deleteOfficeAction, renameOfficeAction } from "./actions";

export const metadata: Metadata = { title: "Offices" };

export default async function OfficesPage() {
  await requirePermission("offices:manage");
  const offices = await listOffices(await getDb());
  return (
    <div className="space-y-4">
      <PageHeader title="Offices" />
      <p className="text-sm text-slate-600">
        Managers and agents of an office see its pulls; admins and users with no office see the whole agency. Set each
        user&apos;s office on the Users page. An office with people in it, or that an assignment rule names, cannot be
        deleted.
      </p>
      <CreateOfficeForm action={createOfficeAction} />
      <DataTable
        label="Offices"
        rows={offices}
        rowKey={(office) => office.id}
        rowTestId="office-row"
        empty="No offices: everyone works agency-wide."
        columns={[
          {
            header: "Name",
            cell: (office) => <RenameOfficeForm id={office.id} name={office.name} action={renameOfficeAction} />,
          },
          { header: "People", className: "tabular-nums", cell: (office) => office.people },
          {
            header: "",
            cell: (office) =>
              office.people === 0 ? (
                <DeleteOfficeForm id={office.id} name={office.name} action={deleteOfficeAction} />
              ) : null,
          },
        ]}
      />
    </div>
  );
}
