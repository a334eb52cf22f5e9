import type { z } from "zod";
import { ADDRESS_NATURES } from "./enums-pull";
import { looseResource, openEnum, requiredId, text } from "./tolerant";

// Addresses appear as the pull's own list (each with its id) and embedded in other resources
// (garaging, lien holder, dwelling, mortgagee), where the service may leave the id out.

/** The fields of spec 2.4 that describe a place; the enrichment lookups send only these. */
export const addressPlaceFields = {
  country: text,
  number: text,
  street: text,
  type: text,
  city: text,
  state: text,
  sec_unit_type: text,
  sec_unit_num: text,
  zip: text,
  prefix: text,
};

const addressDescriptionFields = {
  full_address: text,
  address_nature: openEnum(ADDRESS_NATURES, "address nature"),
  ...addressPlaceFields,
};

export const addressSchema = looseResource({ address_id: requiredId, ...addressDescriptionFields });
export type Address = z.output<typeof addressSchema>;

export const embeddedAddressSchema = looseResource({ address_id: text, ...addressDescriptionFields });
export type EmbeddedAddress = z.output<typeof embeddedAddressSchema>;
