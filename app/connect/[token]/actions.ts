"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { answerReconnectPage, consumerAnswerSchema } from "@/lib/monitoring/reconnect-page-answers";
import { guardReconnectPage } from "@/lib/monitoring/reconnect-page-guard";
import { configuredReconnectPageKey } from "@/lib/monitoring/reconnect-page-key";
import { clientAddress } from "@/lib/security/client-address";
import { field, type FormState } from "@/lib/workflow/form-state";

// The consumer's answers on the public reconnect page. No session: the token in the form is
// the key, checked (and rate-limited) here on every call.

export async function answerReconnectPageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const db = await getDb();
  const guard = await guardReconnectPage(db, configuredReconnectPageKey(), field(formData, "token") ?? "", clientAddress(await headers()), "answer");
  if (!guard.ok) return { status: "error", message: guard.message, code: guard.status === 429 ? "RATE_LIMITED" : "NOT_FOUND" };
  const answer = consumerAnswerSchema.safeParse({
    kind: field(formData, "kind"),
    username: field(formData, "username"),
    password: field(formData, "password"),
    thirdField: field(formData, "thirdField"),
    optionKey: field(formData, "optionKey"),
    code: field(formData, "code"),
  });
  if (!answer.success) return { status: "error", message: answer.error.issues[0]?.message ?? "Check your answer.", code: "INVALID" };
  const result = await answerReconnectPage(db, env().service, guard.pageId, answer.data);
  return result.ok ? { status: "done", message: "Sent. Checking with your insurance company…" } : { status: "error", message: result.message, code: "CONFLICT" };
}
