import { z } from "zod";
import { describeIssues, type Routes } from "../context";
import { CARRIER_CATALOG, LINK_PRODUCTS, type ProductType } from "../data/carriers";
import { TERMS_HTML, TERMS_VERSION } from "../data/terms";
import { fail, send } from "../http";

// Public reference routes, served without credentials as the service does: the terms of
// service (GET /tos) and the carrier catalog (GET /carriers, GET /carriers/{id}).

const PRODUCT = z.enum(["personal", "commercial", "agent"]);

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
    if (!query.success) return fail(res, 400, "INVALID_INPUT", describeIssues(query.error.issues));
    const { products, public_alias: alias } = query.data;
    let offered: ProductType[] | undefined;
    if (alias !== undefined) {
      offered = LINK_PRODUCTS[alias];
      if (!offered) return fail(res, 404, "NOT_FOUND", `No link with the alias ${JSON.stringify(alias)}.`);
    }
    // A carrier is listed when it sells one of the wanted products (and one the link offers).
    const wanted = (p: ProductType) => (!products || products.includes(p)) && (!offered || offered.includes(p));
    return send(res, 200, { carriers: CARRIER_CATALOG.filter((c) => c.products.some(wanted)) });
  }
  const one = /^\/carriers\/([^/]+)$/.exec(path);
  if (one) {
    if (method !== "GET") return fail(res, 405, "METHOD_NOT_ALLOWED");
    const id = (one[1] ?? "").toLowerCase();
    // Found by its id or by its identifier (the insurerName of the connect calls).
    const carrier = CARRIER_CATALOG.find((c) => c.carrier_id === id || c.name === id);
    if (!carrier) return fail(res, 404, "NOT_FOUND");
    return send(res, 200, { carrier });
  }
  return false;
};
