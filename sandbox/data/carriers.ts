// The carriers a consumer can pick in the link flow, with the placeholders of their login
// fields (GET /carriers). Ids are fixed so links and tests can name them; `name` is the
// identifier the connect calls take as insurerName and that pulls carry as carrier_name.

export type ProductType = "personal" | "commercial" | "agent";

export type CatalogCarrier = {
  carrier_id: string;
  name: string;
  friendly_name: string;
  products: ProductType[];
  website_url: string;
  username_placeholder: string;
  password_placeholder: string;
  /** A few carriers ask for a third value (a policy number, a date of birth). */
  third_field_placeholder: string | null;
};

const carrier = (n: number, name: string, friendly: string, products: ProductType[], website: string, username = "Email or username", third: string | null = null): CatalogCarrier => ({
  carrier_id: `c0ffee00-0000-4000-8000-${String(n).padStart(12, "0")}`,
  name,
  friendly_name: friendly,
  products,
  website_url: website,
  username_placeholder: username,
  password_placeholder: "Password",
  third_field_placeholder: third,
});

export const CARRIER_CATALOG: readonly CatalogCarrier[] = [
  carrier(1, "progressive", "Progressive", ["personal", "commercial"], "https://www.progressive.com"),
  carrier(2, "state_farm", "State Farm", ["personal", "commercial", "agent"], "https://www.statefarm.com", "User ID"),
  carrier(3, "geico", "GEICO", ["personal"], "https://www.geico.com", "Email, user ID or policy number"),
  carrier(4, "allstate", "Allstate", ["personal", "agent"], "https://www.allstate.com", "User ID"),
  carrier(5, "liberty_mutual", "Liberty Mutual", ["personal", "commercial"], "https://www.libertymutual.com", "Email"),
  carrier(6, "travelers", "Travelers", ["personal", "commercial"], "https://www.travelers.com", "Username"),
  carrier(7, "nationwide", "Nationwide", ["personal", "commercial"], "https://www.nationwide.com", "Username"),
  carrier(8, "usaa", "USAA", ["personal"], "https://www.usaa.com", "Online ID", "PIN"),
  carrier(9, "nfip", "NFIP Direct", ["personal"], "https://www.floodsmart.gov", "Email", "Policy number"),
  carrier(10, "the_hartford", "The Hartford", ["commercial"], "https://www.thehartford.com", "Username"),
  carrier(11, "next_insurance", "NEXT Insurance", ["commercial"], "https://www.nextinsurance.com", "Email or mobile number"),
  carrier(12, "hiscox", "Hiscox", ["commercial"], "https://www.hiscox.com", "Email", "Date of birth (MM/DD/YYYY)"),
  carrier(13, "lemonade", "Lemonade", ["personal"], "https://www.lemonade.com", "Email"),
  carrier(14, "erie", "Erie Insurance", ["personal", "commercial", "agent"], "https://www.erieinsurance.com", "Username"),
];

/** The links (public aliases) the sandbox knows, and the product types each one offers. */
export const LINK_PRODUCTS: Readonly<Record<string, ProductType[]>> = {
  "get-a-quote": ["personal", "commercial"],
  "renewal-review": ["personal"],
  "business-intake": ["commercial"],
};
