import { z } from "zod";

// A number as a form types it, or as a caller passes it. Text is read as a number ("12", " 8.5 "),
// and text left empty as not given, so a required number left empty answers its field's own
// message instead of passing as 0 (what `z.coerce.number()` makes of ""). Anything else is left
// for the schema to check (a number as it is; NaN, a word, an object refused).

/** Text as a number (NaN when it is not one), empty text as undefined; any other value as it is. */
export function readTypedNumber(value: unknown, clean: (text: string) => string = (text) => text): unknown {
  if (typeof value !== "string") return value;
  const text = clean(value.trim());
  return text === "" ? undefined : Number(text);
}

/** `schema` (a `z.number()` with its messages) read from a form's text as well as from a number. */
export const typedNumber = <S extends z.ZodType<number>>(schema: S) =>
  z.preprocess((value) => readTypedNumber(value), schema);
