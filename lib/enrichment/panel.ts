import "server-only";
import type { Db } from "@/db/types";
import type { EnrichmentAnswerRow } from "@/db/schema";
import { canOnPull, type PullAccess } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/core/actor";
import type { Pull } from "@/lib/service/schemas";
import { compareProperty, type PropertyComparison } from "./compare";
import { purposeWords } from "./purposes";
import {
  accountAddressOf,
  driverSubjectsOf,
  dwellingSubjectsOf,
  personQuestion,
  propertyQuestion,
  questionKey,
  type DriverSubject,
} from "./question";
import { ABANDONED_AFTER_MS, listQuestions, listReusedAnswerIds } from "./store";
import {
  drivingRecordWords,
  failureWords,
  isEnrichmentKind,
  isKeptStatus,
  noDataWords,
  type EnrichmentKind,
  type EnrichmentStatus,
} from "./words";

// The pull page's "Public records" part: per home, its property data beside the carrier's; per
// driver, the licence and the driving record. The account's kept look-ups are read beside the
// pull (lib/loaders/pull-page.ts, its first round trip); the same questions kept for another
// account are read with the account's history (the second). The view carries what the page
// shows, never the question sent (a date of birth stays on the server).

export type AnswerView = {
  status: EnrichmentStatus;
  /** Kept (ANSWERED, NO_DATA): shown instead of a button. Otherwise the look-up may be asked (again). */
  kept: boolean;
  /** Not kept and not under way (failed, or left unfinished by a stopped instance): the button shows. */
  canAskAgain: boolean;
  askedByName: string;
  askedAt: Date;
  answeredAt: Date | null;
  /** The DPPA purpose given, in words (person look-ups). */
  purpose: string | null;
  /** Why there is no answer to show: no data, a failure, a look-up under way. */
  note: string | null;
};

export type HomeView = {
  subjectKey: string;
  address: string | null;
  answer: (AnswerView & { comparison: PropertyComparison | null }) | null;
};

export type LicenceFacts = {
  name: string;
  licence: string;
  state: string;
  maritalStatus: string;
};
export type RecordFacts = {
  status: string;
  minor: number;
  lastMinor: string | null;
  major: number;
  lastMajor: string | null;
};

export type DriverView = {
  subjectKey: string;
  name: string;
  /** The carrier sent a readable date of birth: the form need not ask for one. */
  dateOfBirthOnFile: boolean;
  /** A driving record can go by licence and state when no date of birth is known. */
  licenceOnFile: boolean;
  /** Why nothing can be asked about this driver (no name, no address), or null. */
  blocked: string | null;
  licence: (AnswerView & { facts: LicenceFacts | null }) | null;
  record: (AnswerView & { facts: RecordFacts | null }) | null;
};

export type EnrichmentPanel = {
  pullId: string;
  canRequest: boolean;
  homes: HomeView[];
  drivers: DriverView[];
};

type Asked = { kind: EnrichmentKind; questionKey: string };

/** The questions the pull's homes and drivers would ask now, as far as the pull alone can tell. */
function questionsOf(pull: Pull, now: Date) {
  const address = accountAddressOf(pull);
  const homes = dwellingSubjectsOf(pull).map((subject) => {
    const question = propertyQuestion(subject);
    return { subject, key: question ? questionKey("PROPERTY_DATA", question) : null };
  });
  const personKey = (kind: "DRIVER_LICENSE" | "DRIVING_RECORD", subject: DriverSubject) => {
    const asked = personQuestion(kind, subject, address, subject.dateOfBirth);
    return asked.ok ? questionKey(kind, asked.question) : null;
  };
  const drivers = driverSubjectsOf(pull, now).map((subject) => ({
    subject,
    licenceKey: personKey("DRIVER_LICENSE", subject),
    recordKey: personKey("DRIVING_RECORD", subject),
    blocked: !subject.firstName || !subject.lastName ? "name" : address ? null : "address",
  }));
  return { homes, drivers };
}

/**
 * The account's kept look-ups, completed with the same questions kept under another account (a
 * home on two linked accounts is asked once): what `enrichmentPanelOf` reads. A person's
 * licence or driving record kept for another account shows only once someone asked for it here
 * with a purpose of their own (request.ts records that reuse): the DPPA purpose is per use.
 */
export async function completeEnrichmentRows(
  db: Db,
  pull: Pull,
  accountRows: EnrichmentAnswerRow[],
  now: Date = new Date(),
): Promise<EnrichmentAnswerRow[]> {
  const { homes, drivers } = questionsOf(pull, now);
  const wanted: Asked[] = [
    ...homes.map((h) => ({ kind: "PROPERTY_DATA" as const, questionKey: h.key })),
    ...drivers.flatMap((d) => [
      { kind: "DRIVER_LICENSE" as const, questionKey: d.licenceKey },
      { kind: "DRIVING_RECORD" as const, questionKey: d.recordKey },
    ]),
  ].filter((q): q is Asked => q.questionKey !== null);
  const known = new Set(accountRows.map((row) => `${row.kind}:${row.questionKey}`));
  const missing = wanted.filter((q) => !known.has(`${q.kind}:${q.questionKey}`));
  if (missing.length === 0) return accountRows;
  const others = await listQuestions(db, missing);
  const reused = others.some((row) => row.kind !== "PROPERTY_DATA")
    ? await listReusedAnswerIds(db, pull.pull_id)
    : new Set<number>();
  return [...accountRows, ...others.filter((row) => row.kind === "PROPERTY_DATA" || reused.has(row.id))];
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
const int = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0);

function answerView(row: EnrichmentAnswerRow, abandonedBefore: Date): AnswerView {
  const kind: EnrichmentKind = isEnrichmentKind(row.kind) ? row.kind : "PROPERTY_DATA";
  const status = (["ASKING", "ANSWERED", "NO_DATA", "FAILED"] as const).find((s) => s === row.status) ?? "FAILED";
  const underWay = status === "ASKING" && row.askedAt > abandonedBefore;
  return {
    status,
    kept: isKeptStatus(status),
    canAskAgain: !isKeptStatus(status) && !underWay,
    askedByName: row.askedByName ?? "Someone",
    askedAt: row.askedAt,
    answeredAt: row.answeredAt,
    purpose: kind === "PROPERTY_DATA" ? null : purposeWords(row.purpose),
    note:
      status === "NO_DATA"
        ? noDataWords(kind)
        : status === "FAILED"
          ? failureWords(row.error)
          : status === "ASKING"
            ? underWay
              ? "Being looked up right now. Reload the page in a moment."
              : "A look-up was started but never finished; it can be asked again."
            : null,
  };
}

function licenceFacts(answer: unknown): LicenceFacts | null {
  const licence = record(record(answer).driver_license);
  if (Object.keys(licence).length === 0) return null;
  const name = [str(licence.first_name), str(licence.middle_name), str(licence.last_name)].filter(Boolean).join(" ");
  return {
    name: name || "not given",
    licence: str(licence.drivers_license) ?? "not given",
    state: str(licence.drivers_license_state) ?? "not given",
    maritalStatus: str(licence.marital_status) ?? "not given",
  };
}

function recordFacts(answer: unknown): RecordFacts | null {
  const found = record(record(answer).driving_record_iq);
  if (Object.keys(found).length === 0) return null;
  return {
    status: drivingRecordWords(str(found.status)),
    minor: int(found.minor_violations),
    lastMinor: str(found.last_minor_violation_date_str),
    major: int(found.major_violations),
    lastMajor: str(found.last_major_violation_date_str),
  };
}

/** The newest row of a kind for a question key, else (drivers) for the same subject on this account. */
function pick(
  rows: EnrichmentAnswerRow[],
  kind: EnrichmentKind,
  key: string | null,
  subjectKey: string | null,
): EnrichmentAnswerRow | null {
  const byKey = key ? rows.find((row) => row.kind === kind && row.questionKey === key) : undefined;
  if (byKey) return byKey;
  return subjectKey ? (rows.find((row) => row.kind === kind && row.subjectKey === subjectKey) ?? null) : null;
}

export function enrichmentPanelOf(
  pull: Pull,
  access: PullAccess,
  user: Pick<Actor, "id" | "role">,
  rows: EnrichmentAnswerRow[],
  now: Date = new Date(),
): EnrichmentPanel {
  // Newest first, whatever order the two reads came in.
  const sorted = [...rows].sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
  const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
  const { homes, drivers } = questionsOf(pull, now);
  return {
    pullId: pull.pull_id,
    canRequest: canOnPull(user, "enrichment:request", access),
    homes: homes.map(({ subject, key }) => {
      const row = pick(sorted, "PROPERTY_DATA", key, null);
      const view = row ? answerView(row, abandonedBefore) : null;
      const data = row?.status === "ANSWERED" ? record(record(row.answer).data) : null;
      return {
        subjectKey: subject.subjectKey,
        address: subject.address,
        answer: view ? { ...view, comparison: data ? compareProperty(subject.carrier, data, now) : null } : null,
      };
    }),
    drivers: drivers.map(({ subject, licenceKey, recordKey, blocked }) => {
      const licence = pick(sorted, "DRIVER_LICENSE", licenceKey, subject.subjectKey);
      const drivingRecord = pick(sorted, "DRIVING_RECORD", recordKey, subject.subjectKey);
      return {
        subjectKey: subject.subjectKey,
        name: subject.name,
        dateOfBirthOnFile: subject.dateOfBirth !== null,
        licenceOnFile: subject.licence !== null && subject.licenceState !== null,
        blocked:
          blocked === "name"
            ? "The carrier gave no first and last name for this driver, so nothing can be looked up."
            : blocked === "address"
              ? "The account has no address to look the driver up with."
              : null,
        licence: licence
          ? {
              ...answerView(licence, abandonedBefore),
              facts: licence.status === "ANSWERED" ? licenceFacts(licence.answer) : null,
            }
          : null,
        record: drivingRecord
          ? {
              ...answerView(drivingRecord, abandonedBefore),
              facts: drivingRecord.status === "ANSWERED" ? recordFacts(drivingRecord.answer) : null,
            }
          : null,
      };
    }),
  };
}
