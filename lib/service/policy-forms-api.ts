import "server-only";
import { z } from "zod";
import type { ServiceConfig } from "./client";
import { signedUrl } from "./downloads-api";

// Policy forms and endorsements (service-notes, "Policy forms") download as documents do: the
// service answers 302 with a short-lived signed URL on its storage host, which Coverdesk
// fetches and relays (lib/pulls/document-relay.ts). The id is a form's policy_form_id.

export function getPolicyFormDownloadUrl(config: ServiceConfig, policyFormId: string): Promise<string> {
  return signedUrl(config, `/policyForms/${encodeURIComponent(z.string().trim().min(1).max(100).parse(policyFormId))}`);
}
