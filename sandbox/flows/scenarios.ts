import type { Line, PullVariant } from "../data/pulls";

// The test accounts of the real service's sandbox (service-notes, "Sandbox scenarios"), keyed
// by username. Each says whether the consumer meets a second factor and how the link ends.
// Any other username, or a password other than PASSWORD, is refused as bad credentials.

export const PASSWORD = "pass_good";
/** At IDENTITY_VERIFICATION: this code is wrong (the pull asks again)… */
export const MFA_WRONG_CODE = "000000";
/** …and this one makes the carrier refuse the login; any other code succeeds. */
export const MFA_CARRIER_ERROR_CODE = "000001";

export type Outcome =
  | { kind: "success"; line: Line; variant?: PullVariant; noPolicies?: boolean }
  | { kind: "not_authenticated"; message: string }
  | { kind: "error"; type: "PROVIDER_ERROR" | "INTERNAL_ERROR" };

export type Scenario = {
  username: string;
  /** "options": the consumer first picks a method; "optionless": a code is sent straight away. */
  mfa: "none" | "options" | "optionless";
  outcome: Outcome;
  /** Linked with monitoring on; its first refresh adds a mortgagee. */
  discover?: boolean;
};

const HOME_AND_AUTO: Outcome = { kind: "success", line: "home+auto" };

const TABLE: Scenario[] = [
  { username: "user_good", mfa: "none", outcome: HOME_AND_AUTO },
  { username: "user_mfa", mfa: "options", outcome: HOME_AND_AUTO },
  { username: "user_optionless_mfa", mfa: "optionless", outcome: HOME_AND_AUTO },
  { username: "user_good_commercial", mfa: "none", outcome: { kind: "success", line: "commercial" } },
  {
    username: "user_good_flood",
    mfa: "none",
    outcome: { kind: "success", line: "flood", variant: { expiresInDays: 240 } },
  },
  {
    username: "user_good_flood_expiring",
    mfa: "none",
    outcome: { kind: "success", line: "flood", variant: { expiresInDays: 15 } },
  },
  { username: "user_good_no_policies", mfa: "none", outcome: { kind: "success", line: "home+auto", noPolicies: true } },
  {
    username: "user_locked",
    mfa: "none",
    outcome: {
      kind: "not_authenticated",
      message: "Your account is locked. Call your insurance company to unlock it, then try again.",
    },
  },
  {
    username: "user_unactivated",
    mfa: "none",
    outcome: {
      kind: "not_authenticated",
      message:
        "Your online account is not activated yet. Finish activation on your insurance company's website, then try again.",
    },
  },
  { username: "user_provider_error", mfa: "none", outcome: { kind: "error", type: "PROVIDER_ERROR" } },
  { username: "user_internal_error", mfa: "none", outcome: { kind: "error", type: "INTERNAL_ERROR" } },
  { username: "user_good_discover", mfa: "none", outcome: HOME_AND_AUTO, discover: true },
];

const BY_USERNAME = new Map(TABLE.map((s) => [s.username, s]));

export const SCENARIO_USERNAMES: readonly string[] = TABLE.map((s) => s.username);

export function scenarioFor(username: string): Scenario | null {
  return BY_USERNAME.get(username) ?? null;
}

/** The second-factor methods offered at IDENTITY_VERIFICATION_OPTIONS; `key` goes to /idvoptions. */
export const IDV_OPTIONS = [
  { key: "sms-0", label: "Text a code to (***) ***-4821" },
  { key: "email-0", label: "Email a code to j******@example.com" },
] as const;

/** The carrier's words when it refuses the login after a second factor (code 000001). */
export const CARRIER_LOGIN_ERROR =
  "We could not verify your identity. Log in on your insurance company's website once, then try again.";
export const WRONG_CODE_MESSAGE = "The code you entered is not correct. Check the latest code we sent and try again.";
