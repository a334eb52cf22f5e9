import { DataTable } from "@/components/ui/data-table";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Verdict } from "@/lib/enrichment/compare";
import type { AnswerView, DriverView, EnrichmentPanel as Panel, HomeView } from "@/lib/enrichment/panel";
import type { FormAction } from "@/lib/core/form-state";
import { EnrichmentRequestForm } from "./enrichment-request-form";

// "Public records" under the coverage review: per home, the service's property data beside what
// the carrier has on file, differences pointed out; per driver, the licence and driving-record
// look-ups. A kept answer shows who asked and when (and why, for a driver), with no button to
// pay again; a failed one says why and may be asked again. Server-rendered; every value is text
// React escapes.

const VERDICT: Record<Verdict, { label: string; tone: "danger" | "success" | "warning" | "neutral" }> = {
  differs: { label: "Differs", tone: "danger" },
  same: { label: "Same", tone: "success" },
  similar: { label: "Check", tone: "warning" },
  unknown: { label: "Unknown", tone: "neutral" },
};

function AskedBy({ answer }: { answer: AnswerView }) {
  return (
    <p className="mt-2 text-xs text-slate-600" data-testid="enrichment-asked-by">
      Looked up by {answer.askedByName} <RelativeTime iso={answer.askedAt.toISOString()} />
      {answer.purpose ? <span className="block">Permissible purpose: {answer.purpose}</span> : null}
      <span className="block">Kept on this account: it is not charged again.</span>
    </p>
  );
}

function Note({ answer }: { answer: AnswerView }) {
  if (!answer.note) return null;
  return (
    <p
      className={`text-sm ${answer.status === "FAILED" ? "text-red-700" : "text-slate-700"}`}
      data-testid="enrichment-note"
      data-status={answer.status}
    >
      {answer.note}
    </p>
  );
}

function Home({ home, panel, request }: { home: HomeView; panel: Panel; request: FormAction }) {
  const answer = home.answer;
  const comparison = answer?.comparison ?? null;
  return (
    <li
      className="rounded-md border border-slate-200 p-3 break-words"
      data-testid="enrichment-home"
      data-status={answer?.status ?? "NONE"}
    >
      <h4 className="text-sm font-semibold text-slate-900">Property data: {home.address ?? "no address on file"}</h4>
      {comparison ? (
        <div className="mt-2" data-testid="enrichment-comparison">
          <p className="text-sm text-slate-800" data-testid="enrichment-comparison-summary">
            {comparison.differences === 0
              ? "Public records show no difference from what the carrier has on file."
              : `${comparison.differences} ${comparison.differences === 1 ? "difference" : "differences"} from what the carrier has on file.`}
          </p>
          <div className="mt-2">
            <DataTable
              label="Carrier and public records"
              rows={comparison.lines}
              rowKey={(line) => line.field}
              rowTestId="enrichment-line"
              rowData={(line) => ({ "data-field": line.field, "data-verdict": line.verdict })}
              columns={[
                { header: "What", className: "text-slate-700", cell: (line) => line.label },
                { header: "The carrier has", cell: (line) => line.carrier },
                { header: "Public records say", cell: (line) => line.records },
                {
                  header: "Verdict",
                  hideHeader: true,
                  cell: (line) => <Badge tone={VERDICT[line.verdict].tone}>{VERDICT[line.verdict].label}</Badge>,
                },
              ]}
            />
          </div>
          <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
            {comparison.lines
              .filter((line) => line.verdict === "differs" || line.verdict === "similar")
              .map((line) => (
                <li key={line.field}>{line.sentence}</li>
              ))}
          </ul>
        </div>
      ) : null}
      {answer ? <Note answer={answer} /> : null}
      {answer?.kept ? <AskedBy answer={answer} /> : null}
      {(!answer || answer.canAskAgain) && panel.canRequest && home.address ? (
        <div className="mt-2">
          <EnrichmentRequestForm
            action={request}
            pullId={panel.pullId}
            kind="PROPERTY_DATA"
            subjectKey={home.subjectKey}
            label="Look up property data"
            about={`property data for ${home.address}`}
            askPurpose={false}
            askDateOfBirth="no"
            again={answer !== null}
          />
        </div>
      ) : null}
      {!answer && !home.address ? (
        <p className="text-sm text-slate-600">The carrier sent no address for this home, so it cannot be looked up.</p>
      ) : null}
    </li>
  );
}

function DriverLookup({
  driver,
  panel,
  request,
  kind,
}: {
  driver: DriverView;
  panel: Panel;
  request: FormAction;
  kind: "DRIVER_LICENSE" | "DRIVING_RECORD";
}) {
  const answer = kind === "DRIVER_LICENSE" ? driver.licence : driver.record;
  const title = kind === "DRIVER_LICENSE" ? "Driver licence" : "Driving record";
  const askDateOfBirth = driver.dateOfBirthOnFile
    ? "no"
    : kind === "DRIVING_RECORD" && driver.licenceOnFile
      ? "optional"
      : "required";
  return (
    <div
      data-testid={kind === "DRIVER_LICENSE" ? "enrichment-licence" : "enrichment-record"}
      data-status={answer?.status ?? "NONE"}
    >
      <h5 className="text-sm font-medium text-slate-900">{title}</h5>
      {driver.licence && kind === "DRIVER_LICENSE" && driver.licence.facts ? (
        <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-slate-600">Name on the licence</dt>
            <dd>{driver.licence.facts.name}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Licence number</dt>
            <dd>{driver.licence.facts.licence}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">State</dt>
            <dd>{driver.licence.facts.state}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Marital status</dt>
            <dd>{driver.licence.facts.maritalStatus}</dd>
          </div>
        </dl>
      ) : null}
      {driver.record && kind === "DRIVING_RECORD" && driver.record.facts ? (
        <div className="mt-1 text-sm text-slate-800">
          <p className="font-medium">{driver.record.facts.status}</p>
          <p>
            Minor violations: {driver.record.facts.minor}
            {driver.record.facts.lastMinor ? ` (last on ${driver.record.facts.lastMinor})` : ""}. Major violations:{" "}
            {driver.record.facts.major}
            {driver.record.facts.lastMajor ? ` (last on ${driver.record.facts.lastMajor})` : ""}.
          </p>
        </div>
      ) : null}
      {answer ? <Note answer={answer} /> : null}
      {answer?.kept ? <AskedBy answer={answer} /> : null}
      {(!answer || answer.canAskAgain) && panel.canRequest && !driver.blocked ? (
        <div className="mt-1">
          <EnrichmentRequestForm
            action={request}
            pullId={panel.pullId}
            kind={kind}
            subjectKey={driver.subjectKey}
            label={kind === "DRIVER_LICENSE" ? "Look up the driver licence" : "Look up the driving record"}
            about={`the ${kind === "DRIVER_LICENSE" ? "driver licence" : "driving record"} of ${driver.name}`}
            askPurpose
            askDateOfBirth={askDateOfBirth}
            again={answer !== null}
          />
        </div>
      ) : null}
    </div>
  );
}

function Driver({ driver, panel, request }: { driver: DriverView; panel: Panel; request: FormAction }) {
  return (
    <li className="space-y-3 rounded-md border border-slate-200 p-3 break-words" data-testid="enrichment-driver">
      <h4 className="text-sm font-semibold text-slate-900">{driver.name}</h4>
      {driver.blocked ? <p className="text-sm text-slate-600">{driver.blocked}</p> : null}
      <DriverLookup driver={driver} panel={panel} request={request} kind="DRIVER_LICENSE" />
      <DriverLookup driver={driver} panel={panel} request={request} kind="DRIVING_RECORD" />
    </li>
  );
}

export function EnrichmentPanel({ panel, request }: { panel: Panel; request: FormAction }) {
  if (panel.homes.length === 0 && panel.drivers.length === 0) return null;
  return (
    <div className="space-y-3" data-testid="enrichment-panel">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Public records</h3>
        <p className="text-sm text-slate-600">
          Paid look-ups from the service: each is charged to the agency, asked only when you confirm, and kept on this
          account, so the same question is never paid for twice.
          {panel.canRequest ? "" : " Only the account's agent, a manager or an admin can ask for one."}
        </p>
      </div>
      {panel.homes.length > 0 ? (
        <ul className="space-y-3">
          {panel.homes.map((home) => (
            <Home key={home.subjectKey} home={home} panel={panel} request={request} />
          ))}
        </ul>
      ) : null}
      {panel.drivers.length > 0 ? (
        <ul className="space-y-3">
          {panel.drivers.map((driver) => (
            <Driver key={driver.subjectKey} driver={driver} panel={panel} request={request} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
