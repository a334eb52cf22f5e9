import "server-only";
import type { Db } from "@/db/types";
import type { Actor } from "@/lib/core/actor";
import { getSecondFactor } from "@/lib/auth/second-factor";
import { totpQrSvg } from "@/lib/security/totp";

export type AccountSecurityPage =
  | { factor: "none" }
  /** Set up, not confirmed: the QR code (an SVG document) and the secret in groups of four, for typing in. */
  | { factor: "pending"; qrSvg: string; secretGroups: string[] }
  | { factor: "confirmed"; confirmedAt: Date; recoveryCodesLeft: number };

/** The signed-in user's own security page: their second factor, and what setting it up needs. */
export async function loadAccountSecurityPage(db: Db, user: Actor): Promise<AccountSecurityPage> {
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
