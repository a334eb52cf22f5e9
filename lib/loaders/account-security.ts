import "server-only";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { listPasskeys, type PasskeySummary } from "@/lib/auth/passkeys";
import { getSecondFactor } from "@/lib/auth/second-factor";
import { getSecondFactorRequirement } from "@/lib/auth/second-factor-requirement";
import { totpQrSvg } from "@/lib/security/totp";

export type AccountSecurityPage = {
  /** The agency requires a second factor of every user. */
  required: boolean;
  passkeys: PasskeySummary[];
} & AppFactor;

type AppFactor =
  | { factor: "none" }
  /** Set up, not confirmed: the QR code (an SVG document) and the secret in groups of four, for typing in. */
  | { factor: "pending"; qrSvg: string; secretGroups: string[] }
  | { factor: "confirmed"; confirmedAt: Date; recoveryCodesLeft: number };

/** The signed-in user's own security page: their second factor, and what setting it up needs. */
export async function loadAccountSecurityPage(db: Db, user: Actor): Promise<AccountSecurityPage> {
  const [app, requirement, passkeys] = await Promise.all([
    appFactor(db, user),
    getSecondFactorRequirement(db),
    listPasskeys(db, user.id),
  ]);
  return { required: requirement.required, passkeys, ...app };
}

async function appFactor(db: Db, user: Actor): Promise<AppFactor> {
  const factor = await getSecondFactor(db, user.id);
  switch (factor.state) {
    case "none":
      return { factor: "none" };
    case "pending":
      return {
        factor: "pending",
        qrSvg: await totpQrSvg(factor.uri),
        secretGroups: factor.secret.match(/.{1,4}/g) ?? [factor.secret],
      };
    case "confirmed":
      return { factor: "confirmed", confirmedAt: factor.confirmedAt, recoveryCodesLeft: factor.recoveryCodesLeft };
  }
}
