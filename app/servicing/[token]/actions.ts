"use server";

import { headers } from "next/headers";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { answerServicingPage } from "@/lib/servicing/consumer-page";
import { field, type FormState } from "@/lib/core/form-state";

// The consumer's Confirm or Decline on the public servicing page. No session, so no user guard:
// the token in the form is the key, checked (and rate-limited) in lib/servicing/consumer-page.ts,
// which refuses the answer when the browser is signed in to Coverdesk (staff, not the client).

export async function answerServicingPageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const answer = { token: field(formData, "token") ?? "", answer: field(formData, "answer") };
  const requestHeaders = await headers();
  // A signed-in Coverdesk session in the same browser is staff answering for the client: refused.
  const staff = await getSessionUser();
  return answerServicingPage(await getDb(), env().service, answer, {
    address: clientAddress(requestHeaders),
    userAgent: requestHeaders.get("user-agent"),
    staffUserId: staff?.id ?? null,
  });
}
