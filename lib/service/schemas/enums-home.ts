// The enumerations of dwellings and their coverages (spec 2.11, 2.12).

export const LOSS_SETTLEMENT_TYPES = ["REPLACEMENT_COST", "ACTUAL_CASH_VALUE"] as const;
export type LossSettlementType = (typeof LOSS_SETTLEMENT_TYPES)[number];

export const DWELLING_COVERAGE_NAMES = [
  "ADDITIONAL_LIVING_EXPENSE", "ALL_OTHER_PERILS", "ALL_PERILS", "BASE", "BICYCLE", "BUILDING",
  "BUILDING_CODES", "BUSINESS_PROPERTY", "CAMERA", "CONTENTS", "DAMAGE_TO_PROPERTY_OF_OTHERS",
  "DANGEROUS_DOG_AND_EXOTIC_ANIMAL_LIABILITY", "DWELLING", "EARTHQUAKE", "EQUIPMENT_BREAKDOWN",
  "FAMILY_LIABILITY_PROTECTION", "FASHION_ITEMS", "FINE_ART", "FIRE_DEPARTMENT_SERVICE_CHARGE", "FLOOD",
  "FUNGI_BACTERIA_AND_MOLD", "GUEST_MEDICAL_PROTECTION", "HURRICANE", "ICC", "IDENTITY_THEFT", "JEWELRY",
  "LOSS_ASSESSMENTS", "LOSS_OF_USE", "MEDICAL_PAYMENTS", "MUSICAL_INSTRUMENT", "NAMED_STORM",
  "ORDINANCE_OR_LAW", "OTHER_STRUCTURES", "PERSONAL_INJURY_PROTECTION", "PERSONAL_LIABILITY",
  "PERSONAL_PROPERTY", "PET_DAMAGE", "PORTABLE_ELECTRONICS", "PREMISES_LIABILITY", "REFRIGERATED_PROPERTY",
  "REPLACEMENT_COST_CONTENTS", "REPLACEMENT_COST_DWELLING", "REPLACEMENT_COST_FULL_VALUE", "SERVICE_LINE",
  "SPECIAL_COMPUTER_COVERAGE", "TENANT_WATER_DAMAGE_LIABILITY", "WATER_BACKUP_AND_SUMP_OVERFLOW",
  "WINDSTORM_OR_HAIL",
] as const;

export const DWELLING_COVERAGE_FRIENDLY_NAMES = [
  "Additional Living Expense", "All Other Perils", "All Perils", "Base Liability", "Bicycle", "Building",
  "Building Codes", "Business Property Liability", "Camera", "Contents", "Damage to Property of Others",
  "Dangerous Dog and Exotic Animal Liability", "Dwelling", "Earthquake", "Equipment Breakdown",
  "Family Liability Protection", "Fashion Items", "Fine Art", "Fire Department Service Charge", "Flood",
  "Fungi, Bacteria, and Mold", "Guest Medical Protection", "Hurricane", "Increased Cost of Compliance",
  "Identity Theft", "Jewelry", "Loss Assessments", "Loss of Use", "Medical Payments", "Musical Instrument",
  "Named Storm", "Ordinance or Law", "Other Structures", "Personal Injury Protection", "Personal Liability",
  "Personal Property", "Pet Damage", "Portable Electronics", "Premises Liability", "Refrigerated Property",
  "Replacement Cost - Contents", "Replacement Cost - Dwelling", "Replacement Cost - Full Value", "Service Line",
  "Special Computer Coverage", "Tenant Water Damage Liability", "Water Backup and Sump Overflow",
  "Windstorm or Hail",
] as const;
export type DwellingCoverageName = (typeof DWELLING_COVERAGE_NAMES)[number];
export type DwellingCoverageFriendlyName = (typeof DWELLING_COVERAGE_FRIENDLY_NAMES)[number];

/** The spec lists names and friendly names in the same order, so each name has its label. */
export function dwellingCoverageFriendlyName(name: string | null): DwellingCoverageFriendlyName | null {
  const index = DWELLING_COVERAGE_NAMES.findIndex((known) => known === name);
  return DWELLING_COVERAGE_FRIENDLY_NAMES[index] ?? null;
}
