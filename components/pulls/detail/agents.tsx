import { DataTable } from "@/components/ui/data-table";
import { DASH, formatAddress, text } from "@/lib/format";
import type { AgentInfo } from "@/lib/service/schemas";
import { EmailLink, PhoneLink } from "./contact-links";
import { policyLabel, type PullIndex } from "./pull-lookups";

// The carrier's agents of record for the account's policies: who currently writes the business.

export function Agents({ agents, index }: { agents: AgentInfo[]; index: PullIndex }) {
  return (
    <DataTable
      label="Agents of record"
      rows={agents}
      rowKey={(agent) => agent.agent_info_id}
      rowTestId="agent-of-record"
      columns={[
        { header: "Agency", cell: (agent) => text(agent.agency_name) },
        { header: "Agent", cell: (agent) => text(agent.agent_full_name) },
        { header: "Phone", cell: (agent) => <PhoneLink phone={agent.phone_number} /> },
        { header: "Email", cell: (agent) => <EmailLink email={agent.email} /> },
        {
          header: "Address",
          cell: (agent) => formatAddress(agent.address_id ? index.addresses.get(agent.address_id) : null),
        },
        {
          header: "Policies",
          cell: (agent) => {
            const labels = agent.policy_ids.flatMap((id) => {
              const policy = index.policies.get(id);
              return policy ? [policyLabel(policy)] : [];
            });
            return labels.length > 0 ? labels.join("; ") : DASH;
          },
        },
      ]}
    />
  );
}
