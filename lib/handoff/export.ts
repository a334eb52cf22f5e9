import "server-only";
import { z } from "zod";
import type { Db } from "@/db/types";
import { recordAudit } from "@/lib/audit/audit-log";
import { DRIVER_DATA, recordRedisclosure } from "@/lib/audit/redisclosure";
import type { Actor } from "@/lib/core/actor";
import { DASH, fullName } from "@/lib/format";
import { getViewablePull } from "@/lib/pulls/access";
import { safeFilename } from "@/lib/pulls/download-headers";
import type { Pull } from "@/lib/service/schemas";
import { autosOf, buildEzlynxAuto, driversOf, EZLYNX_MAX_DRIVERS, EZLYNX_MAX_VEHICLES } from "./ezlynx-auto";
import { buildEzlynxHome, homesOf } from "./ezlynx-home";
import type { EzlynxFile } from "./ezlynx-values";

// The EZLynx applicant files as the pull page and its downloads offer them: which files a pull
// has (its private passenger autos, its homes), what each leaves out, and the download itself,
// audited (it hands the consumer's driver data to another system: the recipient and purpose are
// recorded).

export const EZLYNX_KINDS = ["ezlynx-auto", "ezlynx-home"] as const;
export type EzlynxKind = (typeof EZLYNX_KINDS)[number];

export const exportParams = z.object({ pullId: z.uuid() });

/** Who receives the file and why, as the audit trail records them. */
export const EZLYNX_RECIPIENT = "EZLynx import";
export const EZLYNX_PURPOSE = "Quoting the client's insurance in the agency's rating system (EZLynx Import Applicant)";

/** A pull's file of one kind, or null when the pull has nothing that file carries. */
export function buildEzlynxFile(pull: Pull, kind: EzlynxKind, today?: string): EzlynxFile | null {
  return kind === "ezlynx-auto" ? buildEzlynxAuto(pull) : buildEzlynxHome(pull, today);
}

export type HandoffFile = { kind: EzlynxKind; href: string; leftOut: string[]; toCheck: string[] };

/** The pull page's hand-off panel: one entry per file the pull has (none when it has no auto or home). */
export function listHandoffFiles(pull: Pull, today?: string): HandoffFile[] {
  if (pull.parent_pull_id) return [];
  return EZLYNX_KINDS.flatMap((kind) => {
    const file = buildEzlynxFile(pull, kind, today);
    return file
      ? [{ kind, href: `/api/pulls/${pull.pull_id}/exports/${kind}`, leftOut: file.leftOut, toCheck: file.toCheck }]
      : [];
  });
}

export type MadeExport = { xml: string; filename: string };

/**
 * The file for a viewer allowed to export the pull, with its audit entry; null when the pull is
 * not theirs to see, is internal work of the service, or has nothing the file carries.
 */
export async function makeEzlynxExport(
  db: Db,
  user: Actor,
  pullId: string,
  kind: EzlynxKind,
  now: Date = new Date(),
): Promise<MadeExport | null> {
  const detail = await getViewablePull(db, user, pullId, "handoffs:export");
  if (!detail || detail.pull.parent_pull_id) return null;
  const { pull } = detail;
  const day = now.toISOString().slice(0, 10);
  const file = buildEzlynxFile(pull, kind, day);
  if (!file) return null;
  const autos = kind === "ezlynx-auto" ? autosOf(pull) : [];
  // The auto file carries drivers' licence numbers and birth dates: a redisclosure under the DPPA,
  // recorded with its audit entry in one transaction (lib/audit/redisclosure.ts).
  await db.transaction(async (tx) => {
    if (kind === "ezlynx-auto")
      await recordRedisclosure(tx, {
        pullIds: [pullId],
        recipient: EZLYNX_RECIPIENT,
        purpose: EZLYNX_PURPOSE,
        dataKinds: [DRIVER_DATA],
        channel: "hand-off",
        actor: user,
      });
    await recordAudit(tx, user, "HANDOFF_EXPORTED", {
      pullId,
      details: {
        kind,
        recipient: EZLYNX_RECIPIENT,
        purpose: EZLYNX_PURPOSE,
        drivers: kind === "ezlynx-auto" ? Math.min(driversOf(pull, autos).length, EZLYNX_MAX_DRIVERS) : 0,
        vehicles: Math.min(autos.length, EZLYNX_MAX_VEHICLES),
        dwellings: kind === "ezlynx-home" ? Math.min(homesOf(pull).length, 1) : 0,
        leftOut: file.leftOut.length,
      },
    });
  });
  const name = fullName(pull);
  const label = kind === "ezlynx-auto" ? "EZLynx auto" : "EZLynx home";
  return {
    xml: file.xml,
    filename: `${safeFilename(`${label} ${name === DASH ? "" : name} ${day}`, "", kind)}.xml`,
  };
}

/** The download's response: XML as an attachment, never cached (it carries driver data). */
export function xmlDownload(made: MadeExport): Response {
  const bytes = Buffer.from(made.xml, "utf8");
  return new Response(bytes, {
    headers: {
      "content-type": "application/xml; charset=utf-8",
      "content-disposition": `attachment; filename="${made.filename}"`,
      "content-length": String(bytes.byteLength),
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
