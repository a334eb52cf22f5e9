// The permissible purposes of the Driver's Privacy Protection Act (18 U.S.C. § 2721(b)): a
// licence or driving-record look-up must name one, and the person asking vouches for it. The
// code is what the service is sent and the audit trail keeps; the words are what the agent
// chooses from. The ones an insurance agency uses come first.

export const DPPA_PURPOSES = [
  "INSURANCE_UNDERWRITING",
  "INSURANCE_CLAIMS",
  "VERIFY_SUBMITTED_INFORMATION",
  "WRITTEN_CONSENT",
  "LEGAL_PROCEEDING",
  "GOVERNMENT_AGENCY",
  "VEHICLE_SAFETY",
  "RESEARCH",
  "TOWED_VEHICLE_NOTICE",
  "LICENSED_INVESTIGATOR",
  "COMMERCIAL_DRIVER_EMPLOYER",
  "PRIVATE_TOLL_FACILITY",
  "STATE_CONSENT_INDIVIDUAL",
  "STATE_AUTHORIZED_USE",
] as const;
export type DppaPurpose = (typeof DPPA_PURPOSES)[number];

export const DPPA_PURPOSE_WORDS: Record<DppaPurpose, string> = {
  INSURANCE_UNDERWRITING: "Insurance rating or underwriting (by an insurer or its agent)",
  INSURANCE_CLAIMS: "Insurance claims investigation or anti-fraud work",
  VERIFY_SUBMITTED_INFORMATION: "Checking information the person gave us, in the normal course of business",
  WRITTEN_CONSENT: "The person has given us their written consent",
  LEGAL_PROCEEDING: "A civil, criminal, administrative or arbitration proceeding",
  GOVERNMENT_AGENCY: "For a government agency carrying out its functions",
  VEHICLE_SAFETY: "Motor vehicle or driver safety, theft, recalls or emissions",
  RESEARCH: "Research or statistics, publishing no personal information",
  TOWED_VEHICLE_NOTICE: "Notice to the owner of a towed or impounded vehicle",
  LICENSED_INVESTIGATOR: "A licensed private investigator or security service, for one of these purposes",
  COMMERCIAL_DRIVER_EMPLOYER: "An employer checking a commercial driver's licence holder",
  PRIVATE_TOLL_FACILITY: "Running a private toll road or bridge",
  STATE_CONSENT_INDIVIDUAL: "A use the state allows because the person agreed to it with the state",
  STATE_AUTHORIZED_USE: "A use state law allows, related to driving or public safety",
};

/** The section of 18 U.S.C. § 2721(b) each purpose comes from, for the record. */
export const DPPA_SECTION: Record<DppaPurpose, string> = {
  GOVERNMENT_AGENCY: "(b)(1)",
  VEHICLE_SAFETY: "(b)(2)",
  VERIFY_SUBMITTED_INFORMATION: "(b)(3)",
  LEGAL_PROCEEDING: "(b)(4)",
  RESEARCH: "(b)(5)",
  INSURANCE_UNDERWRITING: "(b)(6)",
  INSURANCE_CLAIMS: "(b)(6)",
  TOWED_VEHICLE_NOTICE: "(b)(7)",
  LICENSED_INVESTIGATOR: "(b)(8)",
  COMMERCIAL_DRIVER_EMPLOYER: "(b)(9)",
  PRIVATE_TOLL_FACILITY: "(b)(10)",
  STATE_CONSENT_INDIVIDUAL: "(b)(11)",
  STATE_AUTHORIZED_USE: "(b)(14)",
  WRITTEN_CONSENT: "(b)(13)",
};

/**
 * The purposes an insurance agency may claim, and the only ones offered and accepted: (b)(6), an
 * insurer's agent rating, underwriting or working a claim; (b)(3), checking what the person told
 * us; (b)(13), the person's written consent. The others belong to courts, governments,
 * researchers, investigators, employers, towing and toll operators, never to this use.
 */
export const AGENCY_DPPA_PURPOSES = [
  "INSURANCE_UNDERWRITING",
  "INSURANCE_CLAIMS",
  "VERIFY_SUBMITTED_INFORMATION",
  "WRITTEN_CONSENT",
] as const satisfies readonly DppaPurpose[];
export type AgencyDppaPurpose = (typeof AGENCY_DPPA_PURPOSES)[number];

export const isAgencyDppaPurpose = (value: unknown): value is AgencyDppaPurpose =>
  typeof value === "string" && (AGENCY_DPPA_PURPOSES as readonly string[]).includes(value);

export const PURPOSE_REQUIRED_MESSAGE =
  "Choose the permissible purpose for this look-up: the law (DPPA) requires one for licence and driving-record look-ups.";

export const isDppaPurpose = (value: unknown): value is DppaPurpose =>
  typeof value === "string" && (DPPA_PURPOSES as readonly string[]).includes(value);

/** A purpose in words; a code this list does not know (an old row) is shown as it was kept. */
export const purposeWords = (value: string | null | undefined): string =>
  isDppaPurpose(value) ? DPPA_PURPOSE_WORDS[value] : (value ?? "none given");
