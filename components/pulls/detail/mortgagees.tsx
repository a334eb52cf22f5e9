import { DataTable } from "@/components/ui/data-table";
import { formatAddress, text } from "@/lib/format";
import type { Dwelling } from "@/lib/service/schemas";

// A home's mortgagees. Older payloads fill only the deprecated single-mortgagee fields
// (mortgagee_name, mortgagee_address, mortgage_loan_number); those are used when the list is empty.

type MortgageeRow = { key: string; name: string | null; loanNumber: string | null; address: string };

export function mortgageeRows(dwelling: Dwelling): { rows: MortgageeRow[]; fromDeprecatedFields: boolean } {
  if (dwelling.mortgagees.length > 0) {
    return {
      rows: dwelling.mortgagees.map((m, index) => ({
        key: m.mortgagee_id ?? String(index),
        name: m.name,
        loanNumber: m.loan_number,
        address: formatAddress(m.address),
      })),
      fromDeprecatedFields: false,
    };
  }
  if (dwelling.mortgagee_name || dwelling.mortgage_loan_number || dwelling.mortgagee_address) {
    return {
      rows: [
        {
          key: "deprecated",
          name: dwelling.mortgagee_name,
          loanNumber: dwelling.mortgage_loan_number,
          address: formatAddress(dwelling.mortgagee_address),
        },
      ],
      fromDeprecatedFields: true,
    };
  }
  return { rows: [], fromDeprecatedFields: false };
}

export function Mortgagees({ dwelling, label }: { dwelling: Dwelling; label: string }) {
  const { rows, fromDeprecatedFields } = mortgageeRows(dwelling);
  if (rows.length === 0) return <p className="text-sm text-slate-600">No mortgagee listed.</p>;
  return (
    <>
      <DataTable
        label={label}
        rows={rows}
        rowKey={(row) => row.key}
        rowTestId="mortgagee"
        columns={[
          { header: "Mortgagee", cell: (row) => text(row.name) },
          { header: "Loan number", cell: (row) => <span className="font-mono">{text(row.loanNumber)}</span> },
          { header: "Address", cell: (row) => row.address },
        ]}
      />
      {fromDeprecatedFields ? (
        <p className="mt-1 text-xs text-slate-600">From the service&apos;s older single-mortgagee fields.</p>
      ) : null}
    </>
  );
}
