// What every workflow command answers. Refusals carry a message for the person and, for bad
// input, the field it is about; nothing has changed when `ok` is false.

export type CommandFailure = {
  ok: false;
  /** NOT_FOUND also stands for "not yours to see": a refused pull looks like a missing one. */
  code: "NOT_FOUND" | "FORBIDDEN" | "INVALID" | "STALE" | "CONFLICT";
  message: string;
  field?: string;
};
export type CommandResult<T = object> = ({ ok: true } & T) | CommandFailure;

export const notFound = (what = "That linked account"): CommandFailure => ({
  ok: false,
  code: "NOT_FOUND",
  message: `${what} does not exist or is not yours to see.`,
});
export const forbidden = (message: string): CommandFailure => ({ ok: false, code: "FORBIDDEN", message });
export const invalid = (message: string, field?: string): CommandFailure => ({
  ok: false,
  code: "INVALID",
  message,
  field,
});
export const stale = (message: string): CommandFailure => ({ ok: false, code: "STALE", message });
