import "server-only";
import { z } from "zod";
import { INTERNAL_USE } from "@/lib/audit/redisclosure";
import { AGENCY_DPPA_PURPOSES } from "./purposes";

// What an export or hand-off of driver data asks the user (components/privacy/redisclosure-fields.tsx
// draws the two fields): to whom it goes and the DPPA permissible purpose, for the redisclosure
// log (lib/audit/redisclosure.ts). A command that exports driver data spreads these fields
// into its input schema and hands them to recordRedisclosure.

export const disclosureFields = {
  recipient: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.string().trim().max(200, "Name the recipient in at most 200 characters.").default(INTERNAL_USE),
  ),
  purpose: z.enum(AGENCY_DPPA_PURPOSES, {
    message: "Choose the permissible purpose: the law (DPPA) asks one for every disclosure of driver data.",
  }),
};
export const disclosureInputSchema = z.object(disclosureFields);
export type DisclosureInput = z.output<typeof disclosureInputSchema>;
