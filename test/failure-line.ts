// A failure as one line of a CI log: the first line of its message, without terminal colours,
// at most 300 characters. Shared by the Vitest and Playwright summary reporters.
export function failureLine(message: string | undefined): string {
  const plain = (message ?? "no message").replace(/\u001b\[[0-9;]*m/g, "");
  return plain.split("\n")[0]?.slice(0, 300) ?? "";
}
