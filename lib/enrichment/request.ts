import "server-only";
import { ZodError, z } from "zod";
import type { Db } from "@/db/types";
import type { EnrichmentAnswerRow, Role } from "@/db/schema";
import { canOnPull } from "@/lib/auth/permissions";
import { getViewablePull } from "@/lib/pulls/access";
import type { ServiceConfig } from "@/lib/service/client";
import { lookUpDriverLicense, lookUpDrivingRecord, lookUpPropertyData } from "@/lib/service/enrichment-api";
import { ServiceError } from "@/lib/service/errors";
import type { Pull } from "@/lib/service/schemas";
import type { Actor } from "@/lib/core/actor";
import { recordAudit } from "@/lib/audit/audit-log";
import { DRIVER_DATA, INTERNAL_USE, recordRedisclosure } from "@/lib/audit/redisclosure";
import { forbidden, invalid, notFound, stale, type CommandResult } from "@/lib/core/result";
import { accountKeyOf } from "@/lib/review/decisions";
import {
  DPPA_SECTION,
  PURPOSE_REQUIRED_MESSAGE,
  isAgencyDppaPurpose,
  isDppaPurpose,
  type DppaPurpose,
} from "./purposes";
import {
  accountAddressOf,
  dateOfBirthOf,
  driverSubjectsOf,
  dwellingSubjectsOf,
  personQuestion,
  propertyQuestion,
  questionKey,
} from "./question";
import { awaitQuestion, claimQuestion, settleQuestion } from "./store";
import { CONFIRM_MESSAGE, ENRICHMENT_KINDS, KIND_WORDS, failureWords, type EnrichmentKind } from "./words";

// A paid look-up on request: property data for a home, a driver's licence or driving record.
// The agent confirms the charge; person look-ups name the DPPA permissible purpose, which the
// service is sent with the agent's name and role and the audit trail keeps (never the date of
// birth). The question is claimed in enrichment_answers before the service is called, so the
// same question is paid for once, whoever asks and wherever; a kept answer (ANSWERED, or
// NO_DATA: the service looked and found nothing) is shown instead of asking again, a FAILED one
// may be asked again. The call is made once (no automatic retry): a paid call is never repeated
// behind the agent's back.

export const requestEnrichmentInputSchema = z.object({
  pullId: z.uuid({ message: "This form could not be read. Reload the page and try again." }),
  kind: z.enum(ENRICHMENT_KINDS, { message: "Choose a look-up: property data, driver licence or driving record." }),
  subjectKey: z
    .string({ message: "This form could not be read. Reload the page and try again." })
    .min(1, "This form could not be read. Reload the page and try again.")
    .max(200, "This form could not be read. Reload the page and try again."),
  purpose: z.string().trim().max(100).optional(),
  dateOfBirth: z.string().trim().max(40).optional(),
  /** "yes" from the confirm step: the agent agreed to the charge. */
  confirm: z.string().optional(),
});
export type RequestEnrichmentInput = z.input<typeof requestEnrichmentInputSchema>;

/** What the service is told the asker does (employee_job_function). */
const JOB_FUNCTION: Record<Role, string> = {
  ADMIN: "Insurance agency administrator",
  MANAGER: "Insurance agency manager",
  AGENT: "Insurance agent",
};

export type EnrichmentResult = CommandResult<{
  row: EnrichmentAnswerRow;
  /** Whether this request called the service (false: a kept answer was reused). */
  paid: boolean;
  message: string;
}>;

type Question = {
  kind: EnrichmentKind;
  subjectKey: string;
  /** Who or what it is about, for the audit trail: the address, or the driver's name. */
  subject: string;
  query: Record<string, string>;
  purpose: DppaPurpose | null;
};

const LIMITS_MESSAGE = "This account's names or address are too long for the service to look up.";

function buildQuestion(
  pull: Pull,
  actor: Actor,
  input: z.output<typeof requestEnrichmentInputSchema>,
  now: Date,
): { ok: true; question: Question } | { ok: false; failure: ReturnType<typeof invalid> } {
  const fail = (failure: ReturnType<typeof invalid>) => ({ ok: false as const, failure });
  if (input.kind === "PROPERTY_DATA") {
    const subject = dwellingSubjectsOf(pull).find((s) => s.subjectKey === input.subjectKey);
    if (!subject) return fail(stale("That home is not on this account any more. Reload the page."));
    const query = propertyQuestion(subject);
    if (!query) return fail(invalid("The carrier sent no address for this home, so it cannot be looked up."));
    if (query.address.length > 300) return fail(invalid(LIMITS_MESSAGE));
    return {
      ok: true,
      question: { kind: input.kind, subjectKey: subject.subjectKey, subject: query.address, query, purpose: null },
    };
  }

  const subject = driverSubjectsOf(pull, now).find((s) => s.subjectKey === input.subjectKey);
  if (!subject) return fail(stale("That driver is not on this account any more. Reload the page."));
  if (!input.purpose) return fail(invalid(PURPOSE_REQUIRED_MESSAGE, "purpose"));
  if (!isDppaPurpose(input.purpose))
    return fail(
      invalid("That is not one of the permissible purposes the DPPA allows. Choose one from the list.", "purpose"),
    );
  if (!isAgencyDppaPurpose(input.purpose))
    return fail(
      invalid(
        "That is not a purpose an insurance agency may look a driver up for. Choose one from the list.",
        "purpose",
      ),
    );
  let dateOfBirth: string | null = null;
  if (input.dateOfBirth) {
    dateOfBirth = dateOfBirthOf(input.dateOfBirth, now);
    if (!dateOfBirth)
      return fail(invalid("Give the date of birth as MM/DD/YYYY: a real day, in the past.", "dateOfBirth"));
  }
  const asked = personQuestion(input.kind, subject, accountAddressOf(pull), dateOfBirth ?? subject.dateOfBirth);
  if (!asked.ok) {
    switch (asked.missing) {
      case "name":
        return fail(invalid("The carrier gave no first and last name for this driver; a look-up needs both."));
      case "address":
        return fail(invalid("The account has no address to look the driver up with."));
      case "dateOfBirth":
        return fail(
          invalid(
            input.kind === "DRIVER_LICENSE"
              ? "Give the driver's date of birth (MM/DD/YYYY): the carrier did not send one, and a licence look-up needs it."
              : "Give the driver's date of birth (MM/DD/YYYY): the carrier sent neither one nor a licence number with its state.",
            "dateOfBirth",
          ),
        );
    }
  }
  const query = {
    ...asked.question,
    purpose: input.purpose,
    employee_name: actor.name.trim().slice(0, 200),
    employee_job_function: JOB_FUNCTION[actor.role],
  };
  if (
    query.first_name.length > 100 ||
    query.last_name.length > 100 ||
    (query.middle_name?.length ?? 0) > 100 ||
    query.address.length > 300
  )
    return fail(invalid(LIMITS_MESSAGE));
  return {
    ok: true,
    question: {
      kind: input.kind,
      subjectKey: subject.subjectKey,
      subject: subject.name,
      query,
      purpose: input.purpose,
    },
  };
}

type Outcome = { status: "ANSWERED" | "NO_DATA" | "FAILED"; answer: unknown; error: string | null };

/** One call to the service, read into what is kept: an answer, "no data", or a failure's code. */
async function askService(service: ServiceConfig, question: Question): Promise<Outcome> {
  // One attempt: a timed-out paid call may have been charged, and is not repeated unasked.
  const once: ServiceConfig = { ...service, maxAttempts: 1 };
  const q = question.query;
  try {
    const answer =
      question.kind === "PROPERTY_DATA"
        ? await lookUpPropertyData(once, { address: q.address ?? "" })
        : question.kind === "DRIVER_LICENSE"
          ? await lookUpDriverLicense(once, {
              first_name: q.first_name ?? "",
              middle_name: q.middle_name,
              last_name: q.last_name ?? "",
              address: q.address ?? "",
              date_of_birth_str: q.date_of_birth_str ?? "",
              purpose: q.purpose ?? "",
              employee_name: q.employee_name ?? "",
              employee_job_function: q.employee_job_function ?? "",
            })
          : await lookUpDrivingRecord(once, {
              first_name: q.first_name ?? "",
              middle_name: q.middle_name,
              last_name: q.last_name ?? "",
              address: q.address ?? "",
              date_of_birth_str: q.date_of_birth_str,
              drivers_license: q.drivers_license,
              drivers_license_state: q.drivers_license_state,
              purpose: q.purpose ?? "",
              employee_name: q.employee_name ?? "",
              employee_job_function: q.employee_job_function ?? "",
            });
    return { status: "ANSWERED", answer, error: null };
  } catch (error) {
    if (error instanceof ServiceError) {
      // The service looked and found nothing: an answer like any other, kept and not paid for again.
      const noData =
        error.status === 404 &&
        (error.code === "NO_PROPERTY_DATA" || (question.kind !== "PROPERTY_DATA" && error.code === "NOT_FOUND"));
      return noData
        ? { status: "NO_DATA", answer: null, error: error.code }
        : { status: "FAILED", answer: null, error: error.code };
    }
    // The client's own check of the question (enrichment-api.ts) refused it: nothing was sent.
    if (error instanceof ZodError) return { status: "FAILED", answer: null, error: "INVALID_INPUT" };
    throw error;
  }
}

/**
 * A kept answer handed to someone who asked again: on the trail like a look-up, with this
 * asker's purpose (a driving record kept for one account and read for another is a new use of
 * it, which the DPPA wants a purpose for) and the account it was kept for.
 */
async function recordReuse(
  db: Db,
  actor: Actor,
  question: Question,
  row: EnrichmentAnswerRow,
  pullId: string,
  accountKey: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await recordAudit(tx, actor, "ENRICHMENT_REUSED", {
      pullId,
      details: {
        kind: question.kind,
        subject: question.subject,
        subjectKey: question.subjectKey,
        ...(question.purpose ? { purpose: question.purpose, purposeSection: DPPA_SECTION[question.purpose] } : {}),
        status: row.status,
        keptForPullId: row.pullId,
        otherAccount: row.accountKey !== accountKey,
        // What lets this account's page show the answer from now on (store.ts, listReusedAnswerIds).
        accountKey,
        answerId: row.id,
      },
    });
    if (row.status === "ANSWERED") await recordDriverDataLookUp(tx, actor, question, pullId);
  });
}

/**
 * A licence or driving-record answer shown to the agent who asked: driver data from a motor
 * vehicle record, on the DPPA redisclosure log with the purpose they gave (in the caller's
 * transaction). Property data is not driver data.
 */
async function recordDriverDataLookUp(tx: Db, actor: Actor, question: Question, pullId: string): Promise<void> {
  if (question.kind === "PROPERTY_DATA") return;
  await recordRedisclosure(tx, {
    pullIds: [pullId],
    recipient: `${INTERNAL_USE}: ${actor.name}`,
    purpose: question.purpose ?? "none given",
    dataKinds: [DRIVER_DATA, KIND_WORDS[question.kind]],
    channel: "look-up answer",
    actor,
  });
}

const keptMessage = (row: EnrichmentAnswerRow) =>
  row.status === "NO_DATA"
    ? "Already looked up: the service had no record, and that answer is kept. Nothing was charged this time."
    : "Already looked up: the kept answer is shown. Nothing was charged this time.";

export async function requestEnrichment(
  db: Db,
  service: ServiceConfig,
  actor: Actor,
  input: RequestEnrichmentInput | Record<string, unknown>,
  options: { now?: Date; waitMs?: number } = {},
): Promise<EnrichmentResult> {
  const now = options.now ?? new Date();
  const parsed = requestEnrichmentInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return invalid(issue?.message ?? "Check the form.", issue?.path.join("."));
  }
  const detail = await getViewablePull(db, actor, parsed.data.pullId);
  if (!detail || detail.pull.parent_pull_id) return notFound();
  if (!canOnPull(actor, "enrichment:request", detail.workflow))
    return forbidden("This account is another agent's: only they, a manager or an admin can ask for look-ups on it.");
  const built = buildQuestion(detail.pull, actor, parsed.data, now);
  if (!built.ok) return built.failure;
  if (parsed.data.confirm !== "yes") return invalid(CONFIRM_MESSAGE, "confirm");
  const { question } = built;

  const claim = await claimQuestion(
    db,
    {
      kind: question.kind,
      questionKey: questionKey(question.kind, question.query),
      accountKey: accountKeyOf(detail),
      pullId: detail.pull.pull_id,
      subjectKey: question.subjectKey,
      question: question.query,
      purpose: question.purpose,
      askedBy: actor.id,
      askedByName: actor.name,
    },
    now,
  );
  const reuse = async (row: EnrichmentAnswerRow): Promise<EnrichmentResult> => {
    await recordReuse(db, actor, question, row, detail.pull.pull_id, accountKeyOf(detail));
    return { ok: true, row, paid: false, message: keptMessage(row) };
  };
  if (claim.outcome === "kept") return reuse(claim.row);
  if (claim.outcome === "busy") {
    // Two clicks, or two agents at once: wait for the one look-up under way rather than paying again.
    const row = await awaitQuestion(db, claim.row, options.waitMs ?? 10_000);
    if (row.status === "ANSWERED" || row.status === "NO_DATA") return reuse(row);
    if (row.status === "FAILED") return { ok: false, code: "CONFLICT", message: failureWords(row.error) };
    return {
      ok: false,
      code: "CONFLICT",
      message: `${row.askedByName ?? "Someone"} is looking this up right now. Reload the page in a moment to see the answer.`,
    };
  }

  let outcome: Outcome;
  try {
    outcome = await askService(service, question);
  } catch (error) {
    // Whatever went wrong, the claim must not stay ASKING until it is thought abandoned.
    await settleQuestion(db, claim.row, { status: "FAILED", answer: null, error: "INTERNAL" });
    throw error;
  }
  const saved = await db.transaction(async (tx) => {
    const row = await settleQuestion(tx, claim.row, outcome);
    await recordAudit(tx, actor, "ENRICHMENT_REQUESTED", {
      pullId: detail.pull.pull_id,
      details: {
        kind: question.kind,
        subject: question.subject,
        subjectKey: question.subjectKey,
        ...(question.purpose ? { purpose: question.purpose, purposeSection: DPPA_SECTION[question.purpose] } : {}),
        status: outcome.status,
        ...(outcome.error && outcome.status === "FAILED" ? { error: outcome.error } : {}),
      },
    });
    if (outcome.status === "ANSWERED") await recordDriverDataLookUp(tx, actor, question, detail.pull.pull_id);
    return row;
  });
  const row = saved ?? { ...claim.row, ...outcome, answeredAt: new Date() };
  if (outcome.status === "FAILED") return { ok: false, code: "CONFLICT", message: failureWords(outcome.error) };
  return {
    ok: true,
    row,
    paid: true,
    message:
      outcome.status === "NO_DATA"
        ? `Looked up: the service has no ${KIND_WORDS[question.kind]} for this question. That answer is kept.`
        : `Looked up: the ${KIND_WORDS[question.kind]} is kept on this account.`,
  };
}
