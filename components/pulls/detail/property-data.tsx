import { FieldList, type Field } from "@/components/ui/field-list";
import { DASH, formatCents, formatCount, fullName, text, yesNo } from "@/lib/format";
import type { PropertyData as PropertyDataRecord } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { Heading } from "./detail-section";
import {
  BUILDING_SHAPES,
  CONSTRUCTION_QUALITIES,
  CONSTRUCTION_TYPES,
  COOLING_TYPES,
  ENERGY_TYPES,
  FIREPLACE_TYPES,
  FOUNDATION_TYPES,
  FRAME_TYPES,
  GARAGE_TYPES,
  HEATING_FUELS,
  HEATING_TYPES,
  POOL_TYPES,
  PROPERTY_CLASSES,
  PROPERTY_SUB_TYPES,
  ROOF_COVERS,
  ROOF_SHAPES,
  SEWER_TYPES,
  WALL_TYPES,
} from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// Public-record data about a home, grouped the way an underwriter asks for it: the building,
// its systems, its features, its values, and who owns and finances it.

function Group({ title, fields, level }: { title: string; fields: Field[]; level: 5 | 6 }) {
  return (
    <div>
      <Heading level={level} className="mb-2 text-xs font-semibold tracking-wide text-slate-700 uppercase">
        {title}
      </Heading>
      <FieldList columns={4} fields={fields} />
    </div>
  );
}

function owners(data: PropertyDataRecord): string {
  const names = [
    fullName({ first_name: data.owner1_first_name, last_name: data.owner1_last_name }),
    fullName({ first_name: data.owner2_first_name, last_name: data.owner2_last_name }),
    fullName({ first_name: data.owner3_first_name, last_name: data.owner3_last_name }),
    fullName({ first_name: data.owner4_first_name, last_name: data.owner4_last_name }),
  ].filter((name) => name !== DASH);
  return names.length > 0 ? names.join(", ") : DASH;
}

/** `groupLevel`: the heading level of its groups, one below the heading it sits under. */
export function PropertyData({ data, groupLevel = 5 }: { data: PropertyDataRecord; groupLevel?: 5 | 6 }) {
  return (
    <div className="space-y-4" data-testid="property-data">
      <Group
        level={groupLevel}
        title="Building"
        fields={[
          { label: "Year built", value: text(data.year_built) },
          { label: "Square feet", value: formatCount(data.square_ft) },
          { label: "Stories", value: text(data.num_stories) },
          { label: "Units", value: text(data.num_units) },
          { label: "Bedrooms", value: text(data.num_beds) },
          { label: "Full baths", value: text(data.num_baths_full) },
          { label: "Partial baths", value: text(data.num_baths_partial) },
          { label: "Class", value: enumLabel(PROPERTY_CLASSES, data.class) },
          { label: "Sub type", value: enumLabel(PROPERTY_SUB_TYPES, data.sub_type) },
          { label: "Construction", value: enumLabel(CONSTRUCTION_TYPES, data.construction_type) },
          { label: "Construction quality", value: enumLabel(CONSTRUCTION_QUALITIES, data.construction_quality) },
          { label: "Building shape", value: enumLabel(BUILDING_SHAPES, data.building_shape) },
          { label: "Walls", value: enumLabel(WALL_TYPES, data.wall_type) },
          { label: "Frame", value: enumLabel(FRAME_TYPES, data.frame_type) },
          { label: "Foundation", value: enumLabel(FOUNDATION_TYPES, data.foundation_type) },
          { label: "Roof cover", value: enumLabel(ROOF_COVERS, data.roof_cover) },
          { label: "Roof shape", value: enumLabel(ROOF_SHAPES, data.roof_shape) },
        ]}
      />
      <Group
        level={groupLevel}
        title="Systems"
        fields={[
          { label: "Cooling", value: enumLabel(COOLING_TYPES, data.cooling_type) },
          { label: "Heating", value: enumLabel(HEATING_TYPES, data.heating_type) },
          { label: "Heating fuel", value: enumLabel(HEATING_FUELS, data.heating_fuel) },
          { label: "Energy", value: enumLabel(ENERGY_TYPES, data.energy_type) },
          { label: "Sewer", value: enumLabel(SEWER_TYPES, data.sewer_type) },
        ]}
      />
      <Group
        level={groupLevel}
        title="Features"
        fields={[
          { label: "Fireplace", value: yesNo(data.has_fireplace) },
          { label: "Fireplaces", value: text(data.num_fireplaces) },
          { label: "Fireplace type", value: enumLabel(FIREPLACE_TYPES, data.fireplace_type) },
          { label: "Pool", value: yesNo(data.has_pool) },
          { label: "Pool type", value: enumLabel(POOL_TYPES, data.pool_type) },
          { label: "Garage", value: enumLabel(GARAGE_TYPES, data.garage_type) },
          { label: "Garage square feet", value: formatCount(data.garage_square_ft) },
          { label: "Parking spaces", value: text(data.num_parking_spaces) },
        ]}
      />
      <Group
        level={groupLevel}
        title="Values"
        fields={[
          { label: "Assessed improvements", value: formatCents(data.assessed_improvement_value_cents) },
          { label: "Assessed land", value: formatCents(data.assessed_land_value_cents) },
          { label: "Assessed total", value: formatCents(data.assessed_total_value_cents) },
          { label: "Market improvements", value: formatCents(data.market_improvement_value_cents) },
          { label: "Market land", value: formatCents(data.market_land_value_cents) },
          { label: "Market total", value: formatCents(data.market_total_value_cents) },
          { label: "Purchase price", value: formatCents(data.purchase_price_cents) },
          { label: "Purchased", value: <CalendarDate value={data.purchase_date} /> },
        ]}
      />
      <Group
        level={groupLevel}
        title="Ownership and mortgages"
        fields={[
          { label: "Owners", value: owners(data) },
          { label: "First mortgage lender", value: text(data.first_mortgage_lender) },
          { label: "First mortgage amount", value: formatCents(data.first_mortgage_amount_cents) },
          { label: "Second mortgage lender", value: text(data.second_mortgage_lender) },
          { label: "Second mortgage amount", value: formatCents(data.second_mortgage_amount_cents) },
          { label: "APN", value: <span className="font-mono break-all">{text(data.apn)}</span> },
          { label: "Record updated", value: <CalendarDate value={data.last_update_date} /> },
        ]}
      />
    </div>
  );
}
