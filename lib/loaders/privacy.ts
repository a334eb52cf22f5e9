import "server-only";
import type { Db } from "@/db/types";
import type { PrivacyRequestRow } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit-log";
import type { Actor } from "@/lib/core/actor";
import { countErasedSubjects } from "@/lib/privacy/erased-subjects";
import { consumerSearchSchema, findConsumer, listConsumerPulls, type ConsumerPull } from "@/lib/privacy/find-consumer";
import { daysLeft, getPrivacyRequest, listPrivacyRequests, serviceStepsOf, todayIso } from "@/lib/privacy/requests";
import { firstParam, type SearchParams } from "@/lib/url/search-params";

// The consumer request desk (/admin/privacy) and one request's page. The search is a read of a
// consumer's data, so it is on the audit trail: which fields were given and how many pulls
// matched, never the values typed.

export type RequestWithClock = PrivacyRequestRow & {
  /** Days to the due day (negative: overdue); null once answered. */
  daysLeft: number | null;
};

const withClock = (row: PrivacyRequestRow, today: string): RequestWithClock => ({
  ...row,
  daysLeft: row.status === "DONE" ? null : daysLeft(row.dueOn, today),
});

export type PrivacySearchValues = { email: string; phone: string; name: string; dob: string };

export async function loadPrivacyPage(db: Db, actor: Actor, params: SearchParams, now = new Date()) {
  const today = todayIso(now);
  const values: PrivacySearchValues = {
    email: firstParam(params, "email") ?? "",
    phone: firstParam(params, "phone") ?? "",
    name: firstParam(params, "name") ?? "",
    dob: firstParam(params, "dob") ?? "",
  };
  const searched = Object.values(values).some((v) => v.trim() !== "");
  let results: ConsumerPull[] | null = null;
  let searchError: string | null = null;
  if (searched) {
    const parsed = consumerSearchSchema.safeParse({
      email: values.email,
      phone: values.phone,
      name: values.name,
      birthDate: values.dob,
    });
    if (!parsed.success) searchError = parsed.error.issues[0]?.message ?? "Check the search.";
    else {
      results = await findConsumer(db, parsed.data);
      await recordAudit(db, actor, "CONSUMER_SEARCHED", {
        details: {
          fields: Object.entries(parsed.data).flatMap(([k, v]) => (v ? [k] : [])),
          found: results.length,
        },
      });
    }
  }
  const [requests, erased] = await Promise.all([listPrivacyRequests(db), countErasedSubjects(db)]);
  return {
    today,
    values,
    searched,
    searchError,
    results,
    requests: requests.map((r) => withClock(r, today)),
    erased,
  };
}

export async function loadPrivacyRequestPage(db: Db, requestId: string, now = new Date()) {
  const request = await getPrivacyRequest(db, requestId);
  if (!request) return null;
  const pulls = await listConsumerPulls(db, request.pullIds);
  return {
    request: withClock(request, todayIso(now)),
    pulls,
    serviceSteps:
      request.kind === "ERASURE" && request.status === "DONE" && !request.serviceToldAt
        ? serviceStepsOf(request.servicePullIds)
        : null,
  };
}
