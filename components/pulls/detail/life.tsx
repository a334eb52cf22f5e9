import { LINK_CLASS } from "@/components/ui/link-class";
import type { Policy } from "@/lib/service/schemas";
import { LooseRecordView } from "./loose-fields";
import { policyAnchor } from "./policy-card";
import { policyLabel } from "./pull-lookups";

// Life policies: the spec does not publish the fields of LifePolicy, and the service's example
// (details, riders, beneficiaries) differs from other payloads, so whatever is sent is shown.

export function LifeDetails({ policies }: { policies: Policy[] }) {
  return (
    <div className="space-y-4">
      {policies.map((policy) => (
        <article
          key={policy.policy_id}
          aria-label={`${policyLabel(policy)}: life`}
          className="rounded-lg border border-slate-200 p-4"
          data-testid="life"
        >
          <h3 className="mb-3 text-base font-semibold text-slate-900">
            <a href={`#${policyAnchor(policy.policy_id)}`} className={LINK_CLASS}>
              {policyLabel(policy)}
            </a>
          </h3>
          {policy.life ? <LooseRecordView record={policy.life} label={policyLabel(policy)} level={4} /> : null}
        </article>
      ))}
    </div>
  );
}
