import { z } from "zod";
import { describeIssues, type Routes } from "../context";
import { CARRIER_CATALOG, carrierById, LINK_PRODUCTS, PRODUCT_TYPES, type ProductType } from "../data/carriers";
import { TERMS_HTML, TERMS_VERSION } from "../data/terms";
import { fail, send } from "../http";

// Public reference routes, served without credentials as the service does: the terms of
// service (GET /tos) and the carrier catalog (GET /carriers as a bare array, GET /carriers/{id}
// one carrier), in the published shape.

const PRODUCT = z.enum(PRODUCT_TYPES);

const carriersQuerySchema = z.object({
  /** Comma-separated product types: `products=personal,commercial`. */
  products: z
    .string()
    .transform((value) => value.split(",").map((p) => p.trim()))
    .pipe(z.array(PRODUCT).min(1))
    .optional(),
  public_alias: z.string().min(1).max(200).optional(),
});

export const referenceRoutes: Routes = async (_ctx, { res, method, path, url }) => {
  if (path === "/tos") {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    return send(res, 200, { terms_version: TERMS_VERSION, terms_html: TERMS_HTML });
  }
  if (path === "/carriers") {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const query = carriersQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    // A list route: bad query parameters are VALIDATION_ERROR (service-notes, "Error codes").
    if (!query.success) return fail(res, 400, "VALIDATION_ERROR", describeIssues(query.error.issues));
    const { products, public_alias: alias } = query.data;
    let offered: ProductType[] | undefined;
    if (alias !== undefined) {
      offered = LINK_PRODUCTS[alias];
      if (!offered) return fail(res, 404, "NOT_FOUND", `No link with the alias ${JSON.stringify(alias)}.`);
    }
    // A carrier is listed when it sells one of the wanted products (and one the link offers).
    const wanted = (p: ProductType) => (!products || products.includes(p)) && (!offered || offered.includes(p));
    return send(
      res,
      200,
      CARRIER_CATALOG.filter((c) => c.products.some(wanted)),
    );
  }
  const one = /^\/carriers\/([^/]+)$/.exec(path);
  if (one) {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    // By its id only: a display name ("State Farm") names no carrier.
    const carrier = carrierById(one[1] ?? "");
    if (!carrier) return fail(res, 404, "NOT_FOUND");
    return send(res, 200, carrier);
  }
  return false;
};
