"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { answerConnectPage } from "@/lib/monitoring/consumer-page";
import { clientAddress } from "@/lib/security/client-address";
import { field, type FormState } from "@/lib/core/form-state";

// The consumer's answers on the public reconnect page. No session, so no user guard: the token
// in the form is the key, checked (and rate-limited) in lib/monitoring/consumer-page.ts on every call.

export async function answerReconnectPageAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const answer = {
    token: field(formData, "token") ?? "",
    kind: field(formData, "kind"),
    username: field(formData, "username"),
    password: field(formData, "password"),
    thirdField: field(formData, "thirdField"),
    optionKey: field(formData, "optionKey"),
    code: field(formData, "code"),
  };
  return answerConnectPage(await getDb(), env().service, answer, clientAddress(await headers()));
}
