"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/security/client-address";
import { answerServicingPage } from "@/lib/servicing/consumer-page";
import { field, type FormState } from "@/lib/core/form-state";

// The consumer's Confirm or Decline on the public servicing page. No session, so no user guard:
// the token in the form is the key, checked (and rate-limited) in lib/servicing/consumer-page.ts.

export async function answerServicingPageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const answer = { token: field(formData, "token") ?? "", answer: field(formData, "answer") };
  return answerServicingPage(await getDb(), env().service, answer, clientAddress(await headers()));
}
