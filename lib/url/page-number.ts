import { z } from "zod";

/**
 * A list's page number as its URL gives it: a whole number from 1 to `last` (10,000 unless a
 * list says otherwise). Every paged list reads `page` with this, so a hand-edited "page=abc" or
 * "page=-3" is dropped and named the same way everywhere.
 */
export const pageNumber = (last = 10_000) => z.coerce.number().int().min(1).max(last);
