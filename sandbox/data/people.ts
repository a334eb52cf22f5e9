import { flat, type Random } from "./random";

// People and places that look like an agency's real book: names from many backgrounds, and
// addresses in states whose auto rules differ (Michigan's unlimited PIP, Pennsylvania's tort
// choice, Florida's PIP deductible), so the coverages built on them can differ too.
const FEMALE = [
  "Maria",
  "Linda",
  "Patricia",
  "Jennifer",
  "Elizabeth",
  "Aisha",
  "Priya",
  "Sarah",
  "Nancy",
  "Olivia",
  "Zoë",
  "Fatima",
];
const MALE = [
  "James",
  "Robert",
  "Michael",
  "David",
  "William",
  "Carlos",
  "Thomas",
  "Daniel",
  "Kevin",
  "José",
  "Tomasz",
  "Andre",
];
const ANY = ["Wei", "Jordan", "Alex", "Sam"];
const LAST = [
  "Smith",
  "Johnson",
  "Garcia",
  "Martinez",
  "Brown",
  "Nguyen",
  "Patel",
  "Williams",
  "O'Connor",
  "Kim",
  "Rodriguez",
  "Lee",
  "Walker",
  "Hernandez",
  "Lopez",
  "Clark",
  "Lewis",
  "Young",
  "Allen",
  "Wright",
  "Kowalski",
  "Van der Berg",
  "Ibáñez",
  "Smith-Jones",
];
const STREETS = [
  ["Maple", "AVE"],
  ["Oak", "ST"],
  ["Cedar", "LN"],
  ["Pine", "DR"],
  ["Lakeview", "BLVD"],
  ["Washington", "ST"],
  ["Sunset", "RD"],
  ["Highland", "AVE"],
  ["Meadow", "CT"],
  ["River", "RD"],
  ["Martin Luther King Jr", "BLVD"],
  ["Elm", "PL"],
] as const;
const CITIES = [
  ["Austin", "TX", "787"],
  ["Columbus", "OH", "432"],
  ["Tampa", "FL", "336"],
  ["Denver", "CO", "802"],
  ["Raleigh", "NC", "276"],
  ["Phoenix", "AZ", "850"],
  ["Nashville", "TN", "372"],
  ["Madison", "WI", "537"],
  ["Detroit", "MI", "482"],
  ["Philadelphia", "PA", "191"],
] as const;
const PREFIXES = ["N", "S", "E", "W", "NE", "SW"];
const EMAIL_SAFE = /[^a-z0-9.]/g;

/** "José" → "jose", "Van der Berg" → "vanderberg"; cached, as the same few names recur. */
const emailParts = new Map<string, string>();
function emailPart(name: string): string {
  let part = emailParts.get(name);
  if (part === undefined) {
    part = name.toLowerCase().normalize("NFD").replace(EMAIL_SAFE, "");
    emailParts.set(name, part);
  }
  return part;
}

export type Person = {
  first: string;
  middle: string | null;
  last: string;
  email: string;
  phone: string;
  birth: string;
  gender: string;
};

export const phoneNumber = (random: Random) => `+1${random.int(201, 989)}${random.digits(7)}`;

/** A birth date that makes the person `minAge`–`maxAge` years old on `now`. */
export function birthDate(random: Random, now: Date, minAge: number, maxAge: number): string {
  const year = now.getUTCFullYear() - random.int(minAge, maxAge);
  return `${year}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;
}

export function person(
  random: Random,
  options: { now?: Date; minAge?: number; maxAge?: number; last?: string } = {},
): Person {
  const gender = random.pick(["MALE", "FEMALE", "MALE", "FEMALE", "NONBINARY"]);
  const first = random.pick(gender === "MALE" ? MALE : gender === "FEMALE" ? FEMALE : ANY);
  const last = options.last ?? random.pick(LAST);
  const birth = options.now
    ? birthDate(random, options.now, options.minAge ?? 21, options.maxAge ?? 75)
    : `${random.int(1950, 2003)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;
  return {
    first,
    middle: random.chance(0.3) ? random.pick("ABCDEFGHJKLMNPRSTW".split("")) : null,
    last,
    email: flat(emailPart(first), ".", emailPart(last), String(random.int(1, 99)), "@example.com"),
    phone: phoneNumber(random),
    birth,
    gender,
  };
}

export function address(random: Random, nature: string | null, state?: string) {
  const [street, type] = random.pick(STREETS);
  const candidates = state ? CITIES.filter((c) => c[1] === state) : CITIES;
  const [city, st, zip3] = random.pick(candidates.length > 0 ? candidates : CITIES);
  const number = String(random.int(10, 9899));
  const zip = `${zip3}${random.digits(2)}`;
  const prefix = random.chance(0.15) ? random.pick(PREFIXES) : null;
  // Unit numbers are often not numbers at all ("4B", "PH2").
  const unit = random.chance(0.15) ? random.pick(["", "", "A", "B", "PH"]) + String(random.int(1, 40)) : null;
  const unitType = unit ? random.pick(["APT", "UNIT", "STE"]) : null;
  return {
    address_id: random.uuid(),
    full_address: flat(
      number,
      " ",
      prefix ? `${prefix} ` : "",
      street,
      " ",
      type,
      unit ? ` ${unitType} ${unit}` : "",
      ", ",
      city,
      ", ",
      st,
      " ",
      zip,
    ),
    address_nature: nature,
    country: "US",
    number,
    street,
    type,
    city,
    state: st,
    sec_unit_type: unitType,
    sec_unit_num: unit,
    zip,
    prefix,
  };
}

export type Address = ReturnType<typeof address>;
