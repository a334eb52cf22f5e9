// The enumerations of vehicles and their coverages (spec 2.9, 2.10).

export const VEHICLE_USES = ["PERSONAL", "COMMUTE", "WORK", "SCHOOL", "PLEASURE", "FARM"] as const;
export type VehicleUse = (typeof VEHICLE_USES)[number];

/** Shared by Vehicle.ownership_type and the household enrichment's vehicles. */
export const OWNERSHIP_TYPES = ["OWN", "FINANCE", "LEASE"] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

export const PIP_DEDUCTIBLE_APPLICABILITIES = ["NAMED_INSURED", "NAMED_INSURED_AND_RESIDENT_RELATIVES"] as const;
export type PipDeductibleApplicability = (typeof PIP_DEDUCTIBLE_APPLICABILITIES)[number];

export const VEHICLE_COVERAGE_FRIENDLY_NAMES = [
  "Single Limit Liability",
  "Bodily Injury Liability",
  "Property Damage Liability",
  "Supplemental Spousal Liability",
  "Supplemental Spousal Bodily Injury Liability",
  "Supplemental Spousal Property Damage Liability",
  "Personal Injury Protection",
  "Comprehensive",
  "Full Glass",
  "Collision Deductible Waiver",
  "Collision",
  "Uninsured Motorists",
  "Uninsured Motorist Bodily Injury Liability",
  "Uninsured Motorist Property Damage Liability",
  "Uninsured Motorist Bodily Injury & Property Damage Liability",
  "Underinsured Motorists",
  "Underinsured Motorist Bodily Injury Liability",
  "Underinsured Motorist Property Damage Liability",
  "Underinsured Motorist Bodily Injury & Property Damage Liability",
  "Uninsured / Underinsured Motorists",
  "Uninsured / Underinsured Motorist Bodily Injury Liability",
  "Uninsured / Underinsured Motorist Property Damage Liability",
  "Uninsured / Underinsured Motorist Bodily Injury & Property Damage Liability",
  "Towing and Labor",
  "Loan or Lease Assistance",
  "Rideshare Gap Protection",
  "Medical Payments",
  "Emergency Road Service",
  "Rental Reimbursement",
  "Car Rental and Travel Expenses",
  "Portable Electronics",
  "Mechanical Breakdown",
  "Supplemental Uninsured / Underinsured Motorists",
  "Emergency Expense",
  "Replacement Cost Personal Effects",
  "Vacation Liability Coverage",
  "RV Medical",
  "Extended Benefits",
  "Wage Earner Disability Benefits",
  "Essential Services Disability Benefits",
  "Death Benefit",
  "Car Replacement Assistance",
  "Full Tort",
  "Limited Tort",
  "Combined Single Limit",
  "Spare Parts",
  "Optional Bodily Injury Liability",
  "Motor Cargo",
  "On Hook",
  "First Party Benefit",
  "First Party Benefit - Medical Expense",
  "First Party Benefit - Accidental Death",
  "First Party Benefit - Income Loss",
  "First Party Benefit - Funeral Expense",
  "First Party Benefit - Extraordinary Medical",
  "First Party Benefit - Survivors Loss",
  "Custom Parts and Equipment",
  "Vehicle Protection",
  "Funeral Benefit",
  "Survivors Loss Benefit",
] as const;
export type VehicleCoverageFriendlyName = (typeof VEHICLE_COVERAGE_FRIENDLY_NAMES)[number];
