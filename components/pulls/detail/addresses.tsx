import { DataTable } from "@/components/ui/data-table";
import { formatAddress } from "@/lib/format";
import type { Address } from "@/lib/service/schemas";
import { ADDRESS_NATURES } from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// Every address the account names (mailing, garaging, lien holders, mortgagees, incidents,
// agencies), with what it is.

export function Addresses({ addresses }: { addresses: Address[] }) {
  return (
    <DataTable
      label="Addresses"
      rows={addresses}
      rowKey={(address) => address.address_id}
      rowTestId="address"
      columns={[
        { header: "Kind", cell: (address) => enumLabel(ADDRESS_NATURES, address.address_nature) },
        { header: "Address", cell: (address) => formatAddress(address) },
        { header: "Country", cell: (address) => address.country ?? "—" },
      ]}
    />
  );
}
