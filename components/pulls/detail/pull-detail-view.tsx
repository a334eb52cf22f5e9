import type { PullMonitoring } from "@/lib/monitoring/pull-monitoring";
import type { PullDetail } from "@/lib/pulls/queries";
import { humanize } from "@/lib/format";
import { Addresses } from "./addresses";
import { Agents } from "./agents";
import { Answers } from "./answers";
import { Claims } from "./claims";
import { CommercialParts } from "./commercial";
import { DetailSection, SubHeading } from "./detail-section";
import { Documents } from "./documents";
import { DriversAndRecords } from "./drivers";
import { DwellingDetail } from "./dwelling-detail";
import { LifeDetails } from "./life";
import { LossEvents } from "./loss-events";
import { PayloadProblems } from "./payload-problems";
import { PolicyCard } from "./policy-card";
import { PullHeader } from "./pull-header";
import { PullStanding } from "./pull-standing";
import {
  commercialInsuredsOf,
  dwellingsOf,
  indexPull,
  lifePoliciesOf,
  locationsOf,
  vehiclesOf,
  workersCompPoliciesOf,
} from "./pull-lookups";
import { SectionNav, type SectionLink } from "./section-nav";
import { VehicleDetail } from "./vehicle-detail";

// The detail page's body: the header, a table of contents, then one section per theme. Lines
// of business the account does not have get no section; the lists every account has (policies,
// drivers, claims, documents…) always show, with an empty state that says why they are empty.

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-slate-600">{children}</p>;
}

type Props = {
  detail: PullDetail;
  monitoring: PullMonitoring | null;
  showProblems: boolean;
  /** The agency's controls (stage, assignee), shown under the header. */
  pipeline?: React.ReactNode;
  /** The coverage review (components/review), the first section under the household. */
  review?: React.ReactNode;
  /** The service's policy check (components/review/policy-check-card.tsx), after the review. */
  policyCheck?: React.ReactNode;
  /** The hand-off to the agency's rating system (the EZLynx files), after the policy check; absent without an auto or a home. */
  handoff?: React.ReactNode;
  /** The status the policy check shows, when it was run again since the pull (the header's fact). */
  policyCheckStatus?: string | null;
  /** Who did what to this pull, shown last. */
  history?: React.ReactNode;
  /** The account's earlier and later pulls and what changed (monitored accounts). */
  timeline?: React.ReactNode;
  /** For a SERVICING pull: the client's pull whose servicing request it answers. */
  servicedPullId?: string | null;
};

export function PullDetailView({
  detail,
  monitoring,
  showProblems,
  pipeline,
  review,
  policyCheck,
  handoff,
  policyCheckStatus,
  history,
  timeline,
  servicedPullId = null,
}: Props) {
  const { pull } = detail;
  const index = indexPull(pull);
  const vehicles = vehiclesOf(pull);
  const dwellings = dwellingsOf(pull);
  const insureds = commercialInsuredsOf(pull);
  const locations = locationsOf(pull);
  const workersComp = workersCompPoliciesOf(pull);
  const life = lifePoliciesOf(pull);
  const hasBusiness =
    insureds.length > 0 || locations.length > 0 || workersComp.length > 0 || pull.loss_events.length > 0;
  const skipped = pull.skipped_product_types;

  const sections: SectionLink[] = [
    ...(review ? [{ id: "coverage-review", title: "Coverage review" }] : []),
    ...(policyCheck ? [{ id: "policy-check", title: "Policy check" }] : []),
    ...(handoff ? [{ id: "handoff", title: "Hand-off" }] : []),
    { id: "policies", title: "Policies", count: pull.policies.length },
    ...(vehicles.length > 0 ? [{ id: "vehicles", title: "Vehicles", count: vehicles.length }] : []),
    ...(dwellings.length > 0 ? [{ id: "homes", title: "Homes", count: dwellings.length }] : []),
    ...(hasBusiness ? [{ id: "business", title: "Business" }] : []),
    ...(life.length > 0 ? [{ id: "life", title: "Life", count: life.length }] : []),
    { id: "drivers", title: "Drivers", count: pull.drivers.length },
    { id: "claims", title: "Claims", count: pull.claims.length },
    { id: "documents", title: "Documents", count: pull.documents.length },
    ...(pull.answers.length > 0 ? [{ id: "answers", title: "Answers" }] : []),
    { id: "agents", title: "Agents of record", count: pull.agents.length },
    { id: "addresses", title: "Addresses", count: pull.addresses.length },
    ...(timeline ? [{ id: "account-timeline", title: "Account history" }] : []),
    ...(history ? [{ id: "history", title: "History" }] : []),
    ...(showProblems && detail.problems.length > 0
      ? [{ id: "payload-problems", title: "Data problems", count: detail.problems.length }]
      : []),
  ];

  return (
    <>
      <PullHeader
        pull={pull}
        monitoring={monitoring}
        workflow={detail.workflow}
        accountKey={detail.accountKey}
        {...(policyCheckStatus !== undefined ? { policyCheckStatus } : {})}
      />
      <PullStanding
        type={pull.type}
        status={pull.status}
        accountKey={detail.accountKey}
        deletedAt={detail.deletedAt}
        parentPullId={pull.parent_pull_id}
        servicedPullId={servicedPullId}
      />
      {pipeline}
      <SectionNav sections={sections} />

      {review ? (
        <DetailSection id="coverage-review" title="Coverage review">
          {review}
        </DetailSection>
      ) : null}
      {policyCheck ? (
        <DetailSection id="policy-check" title="Policy check">
          {policyCheck}
        </DetailSection>
      ) : null}
      {handoff ? (
        <DetailSection id="handoff" title="Hand-off">
          {handoff}
        </DetailSection>
      ) : null}

      <DetailSection id="policies" title="Policies" count={pull.policies.length}>
        {skipped.length > 0 ? (
          <p
            className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="skipped-product-types"
          >
            Skipped for lack of access: {skipped.map(humanize).join(", ")} policies. The consumer&apos;s login could not
            see them.
          </p>
        ) : null}
        {pull.policies.length === 0 ? (
          <Empty>
            {pull.no_policies ? "The account holds no policies." : "The service returned no policies for this account."}
          </Empty>
        ) : (
          <div className="space-y-4">
            {pull.policies.map((policy) => (
              <PolicyCard key={policy.policy_id} pullId={pull.pull_id} policy={policy} />
            ))}
          </div>
        )}
      </DetailSection>

      {vehicles.length > 0 ? (
        <DetailSection id="vehicles" title="Vehicles" count={vehicles.length}>
          <div className="space-y-4">
            {vehicles.map(({ item, policy }) => (
              <VehicleDetail key={`${policy.policy_id}-${item.vehicle_id}`} vehicle={item} policy={policy} />
            ))}
          </div>
        </DetailSection>
      ) : null}

      {dwellings.length > 0 ? (
        <DetailSection id="homes" title="Homes" count={dwellings.length}>
          <div className="space-y-4">
            {dwellings.map(({ item, policy }) => (
              <DwellingDetail key={`${policy.policy_id}-${item.dwelling_id}`} dwelling={item} policy={policy} />
            ))}
          </div>
        </DetailSection>
      ) : null}

      {hasBusiness ? (
        <DetailSection id="business" title="Business">
          <CommercialParts insureds={insureds} locations={locations} workersComp={workersComp} index={index} />
          <SubHeading level={3}>Loss events</SubHeading>
          {pull.loss_events.length > 0 ? (
            <LossEvents events={pull.loss_events} index={index} />
          ) : (
            <Empty>
              {pull.no_loss_events ? "The business has no loss events." : "The service returned no loss events."}
            </Empty>
          )}
        </DetailSection>
      ) : null}

      {life.length > 0 ? (
        <DetailSection id="life" title="Life" count={life.length}>
          <LifeDetails policies={life} />
        </DetailSection>
      ) : null}

      <DetailSection id="drivers" title="Drivers" count={pull.drivers.length}>
        <DriversAndRecords
          drivers={pull.drivers}
          records={pull.driving_records}
          noDrivers={pull.no_drivers === true}
          index={index}
        />
      </DetailSection>

      <DetailSection id="claims" title="Claims" count={pull.claims.length}>
        {pull.claims.length > 0 ? (
          <Claims claims={pull.claims} index={index} />
        ) : (
          <Empty>
            {pull.no_claims ? "The account has no claims." : "The service returned no claims for this account."}
          </Empty>
        )}
      </DetailSection>

      <DetailSection id="documents" title="Documents" count={pull.documents.length}>
        {pull.documents.length > 0 ? (
          <Documents pullId={pull.pull_id} documents={pull.documents} index={index} />
        ) : (
          <Empty>
            {pull.no_documents
              ? "The account has no documents."
              : "The service returned no documents for this account."}
          </Empty>
        )}
      </DetailSection>

      {pull.answers.length > 0 ? (
        <DetailSection id="answers" title="Answers">
          <Answers pullId={pull.pull_id} sections={pull.answers} />
        </DetailSection>
      ) : null}

      <DetailSection id="agents" title="Agents of record" count={pull.agents.length}>
        {pull.agents.length > 0 ? (
          <Agents agents={pull.agents} index={index} />
        ) : (
          <Empty>The carrier lists no agent of record.</Empty>
        )}
      </DetailSection>

      <DetailSection id="addresses" title="Addresses" count={pull.addresses.length}>
        {pull.addresses.length > 0 ? <Addresses addresses={pull.addresses} /> : <Empty>No addresses.</Empty>}
      </DetailSection>

      {timeline ? (
        <DetailSection id="account-timeline" title="Account history">
          {timeline}
        </DetailSection>
      ) : null}

      {history ? (
        <DetailSection id="history" title="History">
          {history}
        </DetailSection>
      ) : null}

      {showProblems ? <PayloadProblems problems={detail.problems} /> : null}
    </>
  );
}
