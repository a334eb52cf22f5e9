import { DASH, humanize } from "@/lib/format";
import { isKnownValue } from "@/lib/service/schemas";

// An enum value as an agent reads it: a documented value humanised ("PENDING_CANCELLATION" →
// "Pending cancellation"), one the spec does not list shown exactly as it came ("LOSS_RUN"),
// so nobody mistakes a new value for a known one.

export function enumLabel(known: readonly string[], value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return DASH;
  return isKnownValue(known, value) ? humanize(value) : value;
}
