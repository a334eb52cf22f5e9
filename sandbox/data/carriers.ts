// The carriers a consumer can pick in the link flow (GET /carriers), in the published shape of
// service-notes ("Consent and whitelabel flows"): camelCase keys beside `carrier_id`. The id is
// what the connect calls take as insurerName and what a pull carries as carrier_name; `name` is
// only for display. The seeded book's carriers (policies.ts) are taken from this list.

export type ProductType = "personal" | "commercial";
export const PRODUCT_TYPES = ["personal", "commercial"] as const satisfies readonly ProductType[];

/** What the service can change at a carrier for the consumer (service-notes, "Servicing"). */
export const SERVICING_ACTION_TYPES = ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE", "ADD_VEHICLE"] as const;
export type ServicingActionType = (typeof SERVICING_ACTION_TYPES)[number];

export type CatalogCarrier = {
  carrier_id: string;
  name: string;
  usernameFieldPlaceholder: string;
  /** Null when the carrier asks for no third value. */
  thirdFieldPlaceholder: string | null;
  thirdFieldValidatorRgx?: string;
  thirdFieldValidatorRgxFlags?: string;
  thirdFieldValidatorError?: string;
  color: string;
  homepageUrl: string;
  createAccountUrl: string;
  resetPasswordUrl: string;
  /** The carrier signs in with a one-time code: no password is asked for. */
  disablePasswordField: boolean;
  servicingActions: ServicingActionType[];
  products: ProductType[];
  /** A brand sold under another carrier's login. */
  subIssuerOf?: string;
};

type ThirdField = Pick<
  CatalogCarrier,
  "thirdFieldPlaceholder" | "thirdFieldValidatorRgx" | "thirdFieldValidatorRgxFlags" | "thirdFieldValidatorError"
>;
const NO_THIRD_FIELD: ThirdField = { thirdFieldPlaceholder: null };
const MORTGAGEE: ServicingActionType[] = ["ADD_MORTGAGEE", "EDIT_MORTGAGEE", "REMOVE_MORTGAGEE"];

type Entry = {
  id: string;
  name: string;
  color: string;
  site: string;
  products: ProductType[];
  username?: string;
  third?: ThirdField;
  servicing?: ServicingActionType[];
  noPassword?: boolean;
  subIssuerOf?: string;
};

const carrier = ({
  id,
  name,
  color,
  site,
  products,
  username = "Email or username",
  third = NO_THIRD_FIELD,
  servicing = [],
  noPassword = false,
  subIssuerOf,
}: Entry): CatalogCarrier => ({
  carrier_id: id,
  name,
  usernameFieldPlaceholder: username,
  ...third,
  color,
  homepageUrl: site,
  createAccountUrl: `${site}/account/create`,
  resetPasswordUrl: `${site}/account/forgot-password`,
  disablePasswordField: noPassword,
  servicingActions: servicing,
  products,
  ...(subIssuerOf ? { subIssuerOf } : {}),
});

export const CARRIER_CATALOG: readonly CatalogCarrier[] = [
  carrier({
    id: "progressive",
    name: "Progressive",
    color: "#0077B3",
    site: "https://www.progressive.com",
    products: ["personal", "commercial"],
    servicing: [...MORTGAGEE, "ADD_VEHICLE"],
  }),
  carrier({
    id: "statefarm",
    name: "State Farm",
    color: "#E31837",
    site: "https://www.statefarm.com",
    products: ["personal", "commercial"],
    username: "User ID",
    servicing: MORTGAGEE,
  }),
  carrier({
    id: "geico",
    name: "GEICO",
    color: "#154B8B",
    site: "https://www.geico.com",
    products: ["personal"],
    username: "Email, user ID or policy number",
    servicing: ["ADD_VEHICLE"],
  }),
  carrier({
    id: "allstate",
    name: "Allstate",
    color: "#0033A0",
    site: "https://www.allstate.com",
    products: ["personal"],
    username: "User ID",
    servicing: MORTGAGEE,
  }),
  carrier({
    id: "nationalgeneral",
    name: "National General",
    color: "#00539B",
    site: "https://www.nationalgeneral.com",
    products: ["personal"],
    subIssuerOf: "allstate",
  }),
  carrier({
    id: "libertymutual",
    name: "Liberty Mutual",
    color: "#1A1446",
    site: "https://www.libertymutual.com",
    products: ["personal", "commercial"],
    username: "Email",
  }),
  carrier({
    id: "travelers",
    name: "Travelers",
    color: "#E01933",
    site: "https://www.travelers.com",
    products: ["personal", "commercial"],
    username: "Username",
    servicing: MORTGAGEE,
  }),
  carrier({
    id: "nationwide",
    name: "Nationwide",
    color: "#1C57A5",
    site: "https://www.nationwide.com",
    products: ["personal", "commercial"],
    username: "Username",
  }),
  carrier({
    id: "usaa",
    name: "USAA",
    color: "#002B5C",
    site: "https://www.usaa.com",
    products: ["personal"],
    username: "Online ID",
    third: {
      thirdFieldPlaceholder: "4-digit PIN",
      thirdFieldValidatorRgx: "^\\d{4}$",
      thirdFieldValidatorError: "Enter the 4-digit PIN of your USAA account.",
    },
  }),
  carrier({
    id: "nfip",
    name: "NFIP Direct",
    color: "#2E5A88",
    site: "https://www.floodsmart.gov",
    products: ["personal"],
    username: "Email",
    third: {
      thirdFieldPlaceholder: "Policy number",
      thirdFieldValidatorRgx: "^[a-z]{3}\\d{7}$",
      thirdFieldValidatorRgxFlags: "i",
      thirdFieldValidatorError: "A flood policy number is three letters and seven digits, such as FLD1234567.",
    },
  }),
  carrier({
    id: "thehartford",
    name: "The Hartford",
    color: "#8A1538",
    site: "https://www.thehartford.com",
    products: ["commercial"],
    username: "Username",
  }),
  carrier({
    id: "nextinsurance",
    name: "NEXT Insurance",
    color: "#2D2DFF",
    site: "https://www.nextinsurance.com",
    products: ["commercial"],
    username: "Email or mobile number",
    noPassword: true,
  }),
  carrier({
    id: "hiscox",
    name: "Hiscox",
    color: "#C8102E",
    site: "https://www.hiscox.com",
    products: ["commercial"],
    username: "Email",
    third: {
      thirdFieldPlaceholder: "Date of birth (MM/DD/YYYY)",
      thirdFieldValidatorRgx: "^(0[1-9]|1[0-2])/(0[1-9]|[12]\\d|3[01])/(19|20)\\d{2}$",
      thirdFieldValidatorError: "Enter your date of birth as MM/DD/YYYY.",
    },
  }),
  carrier({
    id: "lemonade",
    name: "Lemonade",
    color: "#FF0083",
    site: "https://www.lemonade.com",
    products: ["personal"],
    username: "Email",
    noPassword: true,
  }),
  carrier({
    id: "erie",
    name: "Erie Insurance",
    color: "#00467F",
    site: "https://www.erieinsurance.com",
    products: ["personal", "commercial"],
    username: "Username",
    servicing: [...MORTGAGEE, "ADD_VEHICLE"],
  }),
];

/** The carrier whose id is exactly `id`: insurerName is always an id, never a display name. */
export function carrierById(id: string): CatalogCarrier | null {
  return CARRIER_CATALOG.find((c) => c.carrier_id === id) ?? null;
}

/** The servicing actions a carrier supports (its catalogue entry's `servicingActions`); none for an unknown carrier. */
export function servicingActionsOf(carrierId: string): readonly ServicingActionType[] {
  return carrierById(carrierId)?.servicingActions ?? [];
}

/** The links (public aliases) the sandbox knows, and the product types each one offers. */
export const LINK_PRODUCTS: Readonly<Record<string, ProductType[]>> = {
  "get-a-quote": ["personal", "commercial"],
  "renewal-review": ["personal"],
  "business-intake": ["commercial"],
};
