// The enumerations describing drivers and insureds (spec 2.7).

export const GENDERS = ["MALE", "FEMALE", "NONBINARY"] as const;
export type Gender = (typeof GENDERS)[number];

export const MARITAL_STATUSES = ["SINGLE", "MARRIED", "DIVORCED", "WIDOWED", "SEPARATED", "CIVIL_UNION"] as const;
export type MaritalStatus = (typeof MARITAL_STATUSES)[number];

export const RELATIONSHIPS_TO_INSURED = [
  "INSURED",
  "SPOUSE",
  "BROTHER",
  "SISTER",
  "FATHER",
  "MOTHER",
  "DAUGHTER",
  "SON",
  "CHILD",
  "RELATIVE",
  "DOMESTIC_PARTNERSHIP",
] as const;
export type RelationshipToInsured = (typeof RELATIONSHIPS_TO_INSURED)[number];

export const EDUCATION_LEVELS = [
  "LESS_THAN_HIGH_SCHOOL",
  "HIGH_SCHOOL",
  "SOME_COLLEGE",
  "BACHELORS",
  "DOCTORS",
  "ASSOCIATES",
  "MASTERS",
  "LAW",
  "VOCATIONAL",
  "PHD",
  "HIGH_SCHOOL_GED",
  "COLLEGE_DEGREE",
  "IN_COLLEGE",
  "GRADUATE_WORK",
] as const;
export type EducationLevel = (typeof EDUCATION_LEVELS)[number];
