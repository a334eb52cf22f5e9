import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DASH, fullName, text, yesNo } from "@/lib/format";
import type { Driver, DrivingRecord } from "@/lib/service/schemas";
import { CalendarDate } from "./dates";
import { SubHeading } from "./detail-section";
import type { PullIndex } from "./pull-lookups";
import {
  EDUCATION_LEVELS,
  GENDERS,
  INCIDENT_TYPES,
  MARITAL_STATUSES,
  RELATIONSHIPS_TO_INSURED,
  VIOLATION_TYPES,
} from "@/lib/service/schemas";
import { enumLabel } from "./enum-label";

// The household's drivers and their driving records (accidents and violations).

function Drivers({ drivers }: { drivers: Driver[] }) {
  return (
    <DataTable
      label="Drivers"
      rows={drivers}
      rowKey={(driver) => driver.driver_id}
      rowTestId="driver"
      columns={[
        { header: "Name", cell: (driver) => fullName(driver) },
        {
          header: "Relationship",
          cell: (driver) => enumLabel(RELATIONSHIPS_TO_INSURED, driver.relationship_to_insured),
        },
        { header: "Born", cell: (driver) => text(driver.date_of_birth_str) },
        {
          header: "Age",
          numeric: true,
          cell: (driver) =>
            driver.age_on_date && driver.age !== null ? `${driver.age} (on ${driver.age_on_date})` : text(driver.age),
        },
        { header: "Gender", cell: (driver) => enumLabel(GENDERS, driver.gender) },
        { header: "Marital status", cell: (driver) => enumLabel(MARITAL_STATUSES, driver.marital_status) },
        { header: "License", cell: (driver) => <span className="font-mono">{text(driver.drivers_license)}</span> },
        { header: "License state", cell: (driver) => text(driver.drivers_license_state) },
        { header: "Age licensed", numeric: true, cell: (driver) => text(driver.age_licensed) },
        { header: "Education", cell: (driver) => enumLabel(EDUCATION_LEVELS, driver.education) },
        { header: "Occupation", cell: (driver) => text(driver.occupation) },
      ]}
    />
  );
}

function DrivingRecords({ records, index }: { records: DrivingRecord[]; index: PullIndex }) {
  return (
    <DataTable
      label="Driving records"
      rows={records}
      rowKey={(record) => record.driving_record_id}
      rowTestId="driving-record"
      columns={[
        {
          header: "Driver",
          cell: (record) => {
            const driver = record.driver_id ? index.drivers.get(record.driver_id) : undefined;
            return driver ? fullName(driver) : DASH;
          },
        },
        { header: "Date", cell: (record) => <CalendarDate value={record.incident_date} /> },
        { header: "Incident", cell: (record) => enumLabel(INCIDENT_TYPES, record.incident_type) },
        { header: "Violation", cell: (record) => enumLabel(VIOLATION_TYPES, record.violation_type) },
        {
          header: "At fault",
          cell: (record) => (record.is_at_fault ? <Badge tone="warning">At fault</Badge> : yesNo(record.is_at_fault)),
        },
      ]}
    />
  );
}

export function DriversAndRecords({
  drivers,
  records,
  noDrivers,
  index,
}: {
  drivers: Driver[];
  records: DrivingRecord[];
  noDrivers: boolean;
  index: PullIndex;
}) {
  return (
    <>
      {drivers.length > 0 ? (
        <Drivers drivers={drivers} />
      ) : (
        <p className="text-sm text-slate-600">
          {noDrivers ? "The account lists no drivers." : "The service returned no drivers for this account."}
        </p>
      )}
      <SubHeading level={3}>Driving records</SubHeading>
      {records.length > 0 ? (
        <DrivingRecords records={records} index={index} />
      ) : (
        <p className="text-sm text-slate-600">No accidents or violations on record.</p>
      )}
    </>
  );
}
