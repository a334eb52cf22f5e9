// The enumerations of a pull and its small parts (spec 2.1–2.8, 3.1), kept as lists so the UI
// can tell a documented value from one the service added since.

export const PULL_STATUSES = [
  "STARTED",
  "QUEUED",
  "DOCUMENT_PARSING",
  "PROCESSING",
  "IDENTITY_VERIFICATION_OPTIONS",
  "IDENTITY_VERIFICATION",
  "GETTING_CONSUMERS",
  "PULLING_DATA",
  "SERVICING",
  "WAITING_FOR_CONSUMER_CONFIRMATION",
  "SUBMITTING_CONFIRMATION",
  "NOT_AUTHENTICATED",
  "INTERNAL_ERROR",
  "PROVIDER_ERROR",
  "VALIDATION_ERROR",
  "SUCCESS",
  "INCOMPLETE",
] as const;
export type PullStatus = (typeof PULL_STATUSES)[number];

export const PULL_TYPES = [
  "PULLING_DATA",
  "SERVICING",
  "DOCUMENT_UPLOAD",
  "DOCUMENT_PARSING",
  "AGENT",
  "MANUAL_ENTRY",
  "POLICY_LOOKUP",
  "CONTACT_ME",
] as const;
export type PullType = (typeof PULL_TYPES)[number];

export const POLICY_CHECK_STATUSES = ["COMPLIANT", "NOT_COMPLIANT", "REVIEW_REQUIRED"] as const;
export type PolicyCheckStatus = (typeof POLICY_CHECK_STATUSES)[number];

export const PRODUCT_TYPES = ["personal", "commercial", "agent"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const FUNNEL_STAGES = ["WORKING", "WON", "LOST"] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

export const ADDRESS_NATURES = [
  "MAILING",
  "PHYSICAL",
  "LIENHOLDER",
  "INCIDENT_LOCATION",
  "AGENCY_LOCATION",
  "MORTGAGEE",
  "ADDITIONAL_INTEREST",
] as const;
export type AddressNature = (typeof ADDRESS_NATURES)[number];

export const ANSWER_FIELD_TYPES = ["TEXT", "NUMBER", "BOOLEAN", "DATE", "FILE_UPLOAD"] as const;
export type AnswerFieldType = (typeof ANSWER_FIELD_TYPES)[number];

export const AGENT_ROLES = ["ADMIN", "AGENT"] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export const DOCUMENT_TYPES = [
  "INSURANCE_APPLICATION",
  "INSURANCE_BINDER",
  "DECLARATIONS",
  "ENDORSEMENT",
  "INSURANCE_ID_CARD",
  "VERIFICATION_OF_INSURANCE",
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_MIME_TYPES = ["application/pdf", "image/jpeg"] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];
