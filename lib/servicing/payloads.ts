import { z } from "zod";
import { formatAddress } from "@/lib/format";
import { SERVICING_ACTION_TYPES, type Pull, type ServicingActionType } from "@/lib/service/schemas";
import { describeServicingChange, MORTGAGEE_POSITIONS, type MortgageePosition } from "./words";

// What the agent's form becomes: the policies a change can be asked on (read from the pull the
// carrier sent), and the payload the service takes for each action, checked field by field with
// messages for the person at the form. Pure, so every refusal can be tested directly.

export type MortgageeTarget = {
  /** "<policy number>#<position>": what the form sends to name one. */
  key: string;
  position: MortgageePosition;
  name: string | null;
  loanNumber: string | null;
  address: string;
};
export type HomeTarget = {
  policyNumber: string;
  label: string;
  mortgagees: MortgageeTarget[];
  /** The first position without a mortgagee, or null when all three are taken. */
  nextPosition: MortgageePosition | null;
};
export type AutoTarget = {
  policyNumber: string;
  label: string;
  vins: string[];
};
export type ServicingTargets = { homes: HomeTarget[]; autos: AutoTarget[] };

const policyLabel = (policy: Pull["policies"][number]) =>
  [policy.policy_type ? policy.policy_type.toLowerCase().replace(/_/g, " ") : "policy", policy.carrier_policy_number]
    .filter(Boolean)
    .join(" ");

/**
 * The pull's policies that a change can be asked on: those with a policy number (the service
 * names a policy by it), homes by their first dwelling's mortgagees (in order: first, second,
 * third), autos by the VINs they list.
 */
export function servicingTargets(pull: Pick<Pull, "policies">): ServicingTargets {
  const homes: HomeTarget[] = [];
  const autos: AutoTarget[] = [];
  for (const policy of pull.policies) {
    const number = policy.carrier_policy_number?.trim();
    if (!number) continue;
    const dwelling = policy.dwellings[0];
    if (dwelling) {
      const listed =
        dwelling.mortgagees.length > 0
          ? dwelling.mortgagees.map((m) => ({
              name: m.name,
              loanNumber: m.loan_number,
              address: formatAddress(m.address),
            }))
          : dwelling.mortgagee_name
            ? [
                {
                  name: dwelling.mortgagee_name,
                  loanNumber: dwelling.mortgage_loan_number,
                  address: formatAddress(dwelling.mortgagee_address),
                },
              ]
            : [];
      const mortgagees = listed.slice(0, MORTGAGEE_POSITIONS.length).map((m, index) => {
        const position = MORTGAGEE_POSITIONS[index] ?? "THIRD";
        return { ...m, key: `${number}#${position}`, position };
      });
      homes.push({
        policyNumber: number,
        label: policyLabel(policy),
        mortgagees,
        nextPosition: MORTGAGEE_POSITIONS[mortgagees.length] ?? null,
      });
    }
    if (policy.vehicles.length > 0 || policy.policy_type === "AUTO") {
      autos.push({
        policyNumber: number,
        label: policyLabel(policy),
        vins: policy.vehicles.map((v) => v.vin?.trim().toUpperCase() ?? "").filter(Boolean),
      });
    }
  }
  return { homes, autos };
}

/** The actions the pull has something to act on: no home policy, no mortgagee change. */
export function possibleActions(targets: ServicingTargets, supported: readonly string[]): ServicingActionType[] {
  return SERVICING_ACTION_TYPES.filter((type) => {
    if (!supported.includes(type)) return false;
    if (type === "ADD_MORTGAGEE") return targets.homes.some((h) => h.nextPosition !== null);
    if (type === "EDIT_MORTGAGEE" || type === "REMOVE_MORTGAGEE")
      return targets.homes.some((h) => h.mortgagees.length > 0);
    return targets.autos.length > 0;
  });
}

/** The form's fields, as text (absent when not sent). */
export type ServicingFields = Partial<
  Record<
    "policy" | "mortgagee" | "name" | "address" | "loanNumber" | "position" | "vin" | "year" | "make" | "model",
    string | null
  >
>;

const chosen = (message: string) => z.string({ message }).trim().min(1, message);
const lenderName = z
  .string({ message: "Enter the lender's name." })
  .trim()
  .min(2, "Enter the lender's name.")
  .max(200, "Keep the lender's name under 200 characters.");
const lenderAddress = z
  .string({ message: "Enter the lender's mailing address." })
  .trim()
  .min(8, "Enter the lender's full mailing address: street, city, state and ZIP.")
  .max(300, "Keep the address under 300 characters.")
  .regex(/\d/, "Enter the lender's full mailing address: street, city, state and ZIP.");
const loanNumber = z
  .string()
  .trim()
  .max(50, "Keep the loan number under 50 characters.")
  .regex(/^[A-Za-z0-9 ./-]*$/, "A loan number holds letters, digits, spaces, dots, dashes or slashes.")
  .optional()
  .transform((value) => value || null);
const position = z.enum(MORTGAGEE_POSITIONS, { message: "Choose first, second or third mortgagee." });

export const VIN_MESSAGE = "A VIN is 17 letters and digits, without I, O or Q.";
const vin = z
  .string({ message: VIN_MESSAGE })
  .trim()
  .toUpperCase()
  .regex(/^[A-HJ-NPR-Z0-9]{17}$/, VIN_MESSAGE);
const modelYear = (now: Date) =>
  z.coerce
    .number({ message: "Enter the model year, four digits." })
    .int("Enter the model year, four digits.")
    .min(1900, "Enter the model year, four digits.")
    .max(now.getUTCFullYear() + 2, `A model year is at most ${now.getUTCFullYear() + 2}.`);
const vehicleText = (what: string) =>
  z
    .string({ message: `Enter the vehicle's ${what}.` })
    .trim()
    .min(1, `Enter the vehicle's ${what}.`)
    .max(60, `Keep the ${what} under 60 characters.`);

const FORMS = (now: Date) =>
  ({
    ADD_MORTGAGEE: z.object({
      policy: chosen("Choose the home policy."),
      name: lenderName,
      address: lenderAddress,
      loanNumber,
      position,
    }),
    EDIT_MORTGAGEE: z.object({
      mortgagee: chosen("Choose the mortgagee to change."),
      name: lenderName,
      address: lenderAddress,
      loanNumber,
    }),
    REMOVE_MORTGAGEE: z.object({ mortgagee: chosen("Choose the mortgagee to remove.") }),
    ADD_VEHICLE: z.object({
      policy: chosen("Choose the auto policy."),
      vin,
      year: modelYear(now),
      make: vehicleText("make"),
      model: vehicleText("model"),
    }),
  }) as const;

export type ServicingPayloadResult =
  | { ok: true; type: ServicingActionType; payload: Record<string, unknown>; change: string }
  | { ok: false; message: string; field?: string };

const refuse = (message: string, field?: string): ServicingPayloadResult => ({ ok: false, message, field });

/** Absent and empty fields read alike, so zod's messages (not "expected string") speak. */
const present = (fields: ServicingFields) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === "string" && value.trim() !== ""));

/**
 * The service's payload for one action, from the form's fields and the pull's policies; or the
 * first refusal, naming its field. Also refuses what the pull itself shows cannot work (a
 * position already taken, a VIN already on the policy) before the carrier is asked.
 */
export function buildServicingPayload(
  type: string,
  fields: ServicingFields,
  targets: ServicingTargets,
  now = new Date(),
): ServicingPayloadResult {
  if (!(SERVICING_ACTION_TYPES as readonly string[]).includes(type))
    return refuse("Choose a change to ask for.", "actionType");
  const action = type as ServicingActionType;
  const parsed = FORMS(now)[action].safeParse(present(fields));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(issue?.message ?? "Check the form.", issue?.path.join(".") || undefined);
  }
  const values = parsed.data as Record<string, unknown>;
  const done = (payload: Record<string, unknown>): ServicingPayloadResult => ({
    ok: true,
    type: action,
    payload,
    change: describeServicingChange(action, payload),
  });

  if (action === "ADD_MORTGAGEE") {
    const home = targets.homes.find((h) => h.policyNumber === values.policy);
    if (!home) return refuse("Choose one of this client's home policies.", "policy");
    const taken = home.mortgagees.find((m) => m.position === values.position);
    if (taken)
      return refuse(
        `Policy ${home.policyNumber} already has a ${String(values.position).toLowerCase()} mortgagee (${taken.name ?? "unnamed"}): change that one instead, or choose the next position.`,
        "position",
      );
    if (home.mortgagees.some((m) => m.name && m.name.toLowerCase() === String(values.name).toLowerCase()))
      return refuse(`${String(values.name)} is already a mortgagee on policy ${home.policyNumber}.`, "name");
    return done({
      carrier_policy_number: home.policyNumber,
      name: values.name,
      address: values.address,
      loan_number: values.loanNumber,
      mortgagee_type: values.position,
    });
  }
  if (action === "EDIT_MORTGAGEE" || action === "REMOVE_MORTGAGEE") {
    const home = targets.homes.find((h) => h.mortgagees.some((m) => m.key === values.mortgagee));
    const current = home?.mortgagees.find((m) => m.key === values.mortgagee);
    if (!home || !current) return refuse("Choose one of the mortgagees on this client's policies.", "mortgagee");
    if (action === "REMOVE_MORTGAGEE")
      return done({ carrier_policy_number: home.policyNumber, mortgagee_type: current.position });
    return done({
      carrier_policy_number: home.policyNumber,
      name: values.name,
      address: values.address,
      loan_number: values.loanNumber,
      mortgagee_type: current.position,
    });
  }
  const auto = targets.autos.find((a) => a.policyNumber === values.policy);
  if (!auto) return refuse("Choose one of this client's auto policies.", "policy");
  if (auto.vins.includes(String(values.vin)))
    return refuse(`The vehicle with VIN ${String(values.vin)} is already on policy ${auto.policyNumber}.`, "vin");
  return done({
    carrier_policy_number: auto.policyNumber,
    vehicle: { vin: values.vin, model_year: values.year, make: values.make, model: values.model },
  });
}
