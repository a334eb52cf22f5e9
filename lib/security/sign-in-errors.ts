// What the sign-in endpoint reports and what the login page says about it. Shared by the server
// (which encodes the refusal) and the login form (which words it), so both read one format.
// Every refusal that is not a throttle reads the same, so no answer tells whether an email exists.

const THROTTLED_PREFIX = "THROTTLED:";

export const WRONG_CREDENTIALS_MESSAGE = "That email and password do not match an active account.";

/** The password was right; the account has a second factor, whose code the form must now ask for. */
export const CODE_REQUIRED_ERROR = "CODE_REQUIRED";
/** The password was right; the code was wrong, or used already. */
export const CODE_REFUSED_ERROR = "CODE_REFUSED";

export const CODE_REQUIRED_MESSAGE = "Enter the code your authenticator app shows, or one of your recovery codes.";
export const CODE_REFUSED_MESSAGE = "That code is not right, or was used already. Enter the next code your app shows.";

export const PASSKEY_REFUSED_MESSAGE = "That passkey was not accepted. Try again, or enter your app's code.";
export const PASSKEY_CANCELLED_MESSAGE = "No passkey was used: the browser's prompt was closed or timed out.";
export const NO_PASSKEY_MESSAGE = "This account has no passkey. Enter the code your authenticator app shows.";

/** Whether the answer asks the form for the second step (a code), rather than for the password again. */
export const asksForCode = (error: string | null | undefined): boolean =>
  error === CODE_REQUIRED_ERROR || error === CODE_REFUSED_ERROR;

/** The error next-auth passes back to the browser when sign-in is throttled. */
export function throttledError(retryAfterSeconds: number): string {
  return `${THROTTLED_PREFIX}${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

/** Seconds under a minute, else minutes rounded up: the waits double from 2 seconds to 15 minutes. */
export function throttledMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return `Too many attempts. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The sentence for any error next-auth hands the login form. */
export function signInErrorMessage(error: string | null | undefined): string {
  if (error?.startsWith(THROTTLED_PREFIX)) {
    const seconds = Number(error.slice(THROTTLED_PREFIX.length));
    if (Number.isFinite(seconds) && seconds > 0) return throttledMessage(seconds);
  }
  if (error === CODE_REQUIRED_ERROR) return CODE_REQUIRED_MESSAGE;
  if (error === CODE_REFUSED_ERROR) return CODE_REFUSED_MESSAGE;
  return WRONG_CREDENTIALS_MESSAGE;
}
