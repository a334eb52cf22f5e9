import { describe, expect, it } from "vitest";
import { WRONG_CREDENTIALS_MESSAGE, signInErrorMessage, throttledError } from "./sign-in-errors";

describe("what the login page says", () => {
  it("words a throttle in seconds under a minute, else in whole minutes rounded up", () => {
    expect(signInErrorMessage(throttledError(900))).toBe("Too many attempts. Try again in 15 minutes.");
    expect(signInErrorMessage(throttledError(61))).toBe("Too many attempts. Try again in 2 minutes.");
    expect(signInErrorMessage(throttledError(60))).toBe("Too many attempts. Try again in 1 minute.");
    expect(signInErrorMessage(throttledError(8))).toBe("Too many attempts. Try again in 8 seconds.");
    expect(signInErrorMessage(throttledError(1))).toBe("Too many attempts. Try again in 1 second.");
  });

  it("says the same for every other refusal, whatever the error (so nothing tells whether an email exists)", () => {
    for (const error of [
      "CredentialsSignin",
      "THROTTLED:",
      "THROTTLED:abc",
      "THROTTLED:-5",
      "Callback",
      "",
      null,
      undefined,
    ]) {
      expect(signInErrorMessage(error)).toBe(WRONG_CREDENTIALS_MESSAGE);
    }
  });
});
