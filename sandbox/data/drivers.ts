import { person, type Person } from "./people";
import type { Random } from "./random";

// The drivers of a household (spec 2.7): the account holder, maybe a partner, children old
// enough to drive, a parent. Vehicles list the same drivers (same driver_id) with is_excluded
// telling whether the carrier excluded them from that vehicle.

export type Member = { who: Person; relationship: string };

const STATES = ["TX", "OH", "FL", "CO", "NC", "AZ", "TN", "WI", "MI", "PA"];
const OCCUPATIONS = [
  "Teacher",
  "Software Engineer",
  "Registered Nurse",
  "Sales Manager",
  "Electrician",
  "Accountant",
  "Retired",
  "Student",
  "Homemaker",
  "Truck Driver",
  null,
];

function ageOn(birth: string, now: Date): number {
  const [y, m, d] = birth.split("-").map(Number);
  const age = now.getUTCFullYear() - (y ?? 0);
  const beforeBirthday =
    now.getUTCMonth() + 1 < (m ?? 1) || (now.getUTCMonth() + 1 === m && now.getUTCDate() < (d ?? 1));
  return beforeBirthday ? age - 1 : age;
}

/** The holder's household besides the holder; `withTeen` guarantees a young driver (often the excluded one). */
export function householdMembers(random: Random, now: Date, holder: Person, withTeen: boolean): Member[] {
  const members: Member[] = [];
  if (random.chance(0.55))
    members.push({
      who: person(random, { now, minAge: 24, maxAge: 70, last: random.chance(0.8) ? holder.last : undefined }),
      relationship: random.pick(["SPOUSE", "SPOUSE", "SPOUSE", "DOMESTIC_PARTNERSHIP"]),
    });
  if (withTeen || random.chance(0.2))
    members.push({
      who: person(random, { now, minAge: 16, maxAge: 19, last: holder.last }),
      relationship: random.pick(["SON", "DAUGHTER", "CHILD"]),
    });
  if (random.chance(0.06))
    members.push({
      who: person(random, { now, minAge: 70, maxAge: 88, last: holder.last }),
      relationship: random.pick(["FATHER", "MOTHER", "RELATIVE"]),
    });
  return members;
}

/** `state`: where the account lives; most drivers hold that state's license. */
export function driver(random: Random, now: Date, who: Person, relationship: string | null, state?: string) {
  const age = ageOn(who.birth, now);
  const student = age < 23;
  return {
    driver_id: random.uuid(),
    first_name: who.first,
    middle_name: who.middle,
    last_name: who.last,
    drivers_license: random.chance(0.95) ? `${random.pick(["D", "S", "K", "F"])}${random.digits(8)}` : null,
    drivers_license_state: state && random.chance(0.9) ? state : random.pick(STATES),
    date_of_birth_str: who.birth,
    occupation: student ? "Student" : random.pick(OCCUPATIONS),
    age_on_date: random.chance(0.5) ? now.toISOString().slice(0, 10) : null,
    age,
    age_licensed: random.chance(0.9) ? random.int(16, 18) : null,
    gender: who.gender,
    marital_status:
      relationship === "SPOUSE"
        ? "MARRIED"
        : relationship === "DOMESTIC_PARTNERSHIP"
          ? "CIVIL_UNION"
          : student
            ? "SINGLE"
            : random.pick(["SINGLE", "MARRIED", "DIVORCED", "WIDOWED", "SEPARATED", null]),
    education:
      age < 18
        ? random.pick(["LESS_THAN_HIGH_SCHOOL", null])
        : student
          ? random.pick(["HIGH_SCHOOL", "IN_COLLEGE", "SOME_COLLEGE"])
          : random.pick([
              "BACHELORS",
              "HIGH_SCHOOL",
              "MASTERS",
              "ASSOCIATES",
              "SOME_COLLEGE",
              "HIGH_SCHOOL_GED",
              "VOCATIONAL",
              "PHD",
              "LAW",
              "DOCTORS",
              "COLLEGE_DEGREE",
              "GRADUATE_WORK",
              "LESS_THAN_HIGH_SCHOOL",
              null,
            ]),
    relationship_to_insured: relationship,
  };
}

export type Driver = ReturnType<typeof driver>;

export function vehicleDriver(d: Driver, excluded: boolean) {
  return { ...d, is_excluded: excluded };
}
