import { z } from "zod";

/**
 * A list's page number as its URL gives it: a whole number from 1 to `last` (10,000 unless a
 * list says otherwise). Every paged list reads `page` with this, so a hand-edited "page=abc" or
 * "page=-3" is dropped and named the same way everywhere.
 */
export const pageNumber = (last = 10_000) => z.coerce.number().int().min(1).max(last);

/** The rows of a list page `page` (from 1) of `size` rows. */
export const pageSlice = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** How many pages `total` rows fill, `size` a page: at least one, an empty list's. */
export const pageCountOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
