import type { Random } from "./random";

// People and places that look like an agency's real book.
const FIRST = ["James", "Maria", "Robert", "Linda", "Michael", "Patricia", "David", "Jennifer", "William", "Elizabeth", "Carlos", "Aisha", "Wei", "Priya", "Thomas", "Sarah", "Daniel", "Nancy", "Kevin", "Olivia"];
const LAST = ["Smith", "Johnson", "Garcia", "Martinez", "Brown", "Nguyen", "Patel", "Williams", "O'Connor", "Kim", "Rodriguez", "Lee", "Walker", "Hernandez", "Lopez", "Clark", "Lewis", "Young", "Allen", "Wright"];
const STREETS = [["Maple", "AVE"], ["Oak", "ST"], ["Cedar", "LN"], ["Pine", "DR"], ["Lakeview", "BLVD"], ["Washington", "ST"], ["Sunset", "RD"], ["Highland", "AVE"], ["Meadow", "CT"], ["River", "RD"]] as const;
const CITIES = [["Austin", "TX", "787"], ["Columbus", "OH", "432"], ["Tampa", "FL", "336"], ["Denver", "CO", "802"], ["Raleigh", "NC", "276"], ["Phoenix", "AZ", "850"], ["Nashville", "TN", "372"], ["Madison", "WI", "537"]] as const;

export type Person = { first: string; middle: string | null; last: string; email: string; phone: string; birth: string; gender: string };

export function person(random: Random): Person {
  const first = random.pick(FIRST);
  const last = random.pick(LAST);
  return {
    first,
    middle: random.chance(0.3) ? random.pick(FIRST).slice(0, 1) : null,
    last,
    email: `${first}.${last}${random.int(1, 99)}@example.com`.toLowerCase().replace("'", ""),
    phone: `+1${random.int(201, 989)}${random.digits(7)}`,
    birth: `${random.int(1950, 2003)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`,
    gender: random.pick(["MALE", "FEMALE", "NONBINARY"]),
  };
}

export function address(random: Random, nature: string | null, state?: string) {
  const [street, type] = random.pick(STREETS);
  const candidates = state ? CITIES.filter((c) => c[1] === state) : CITIES;
  const [city, st, zip3] = random.pick(candidates.length > 0 ? candidates : CITIES);
  const number = String(random.int(10, 9899));
  const zip = `${zip3}${random.digits(2)}`;
  const unit = random.chance(0.15) ? String(random.int(1, 40)) + random.pick(["", "A", "B"]) : null;
  return {
    address_id: random.uuid(),
    full_address: `${number} ${street} ${type}${unit ? ` APT ${unit}` : ""}, ${city}, ${st} ${zip}`,
    address_nature: nature,
    country: "US",
    number,
    street,
    type,
    city,
    state: st,
    sec_unit_type: unit ? "APT" : null,
    sec_unit_num: unit,
    zip,
    prefix: null,
  };
}

export type Address = ReturnType<typeof address>;
