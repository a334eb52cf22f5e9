import "server-only";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Env } from "@/lib/env";

// Where mail goes: the agency's SMTP server when COVERDESK_SMTP_URL is set (always in
// production), otherwise a folder of .eml files (COVERDESK_MAIL_DIR) that the admin's outbox
// page lists, so no mail leaves a developer's machine. nodemailer writes the message either way:
// the .eml file is byte for byte what SMTP would have carried.

export type Mail = { to: string; subject: string; text: string; html: string };
type MailSettings = Env["mail"];

const transports = new Map<string, Transporter>();

function smtpTransport(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) transports.set(url, (transport = nodemailer.createTransport(url)));
  return transport;
}

const fileName = (to: string, at: Date) =>
  `${at.toISOString().replace(/[:.]/g, "-")}-${to.replace(/[^A-Za-z0-9@._-]/g, "_").slice(0, 80)}.eml`;

export async function sendMail(mail: Mail, settings: MailSettings): Promise<{ via: "smtp" | "outbox"; id: string }> {
  const message = { from: settings.from, ...mail };
  if (settings.smtpUrl) {
    const info = await smtpTransport(settings.smtpUrl).sendMail(message);
    return { via: "smtp", id: String(info.messageId ?? "") };
  }
  const info = await nodemailer
    .createTransport({ streamTransport: true, buffer: true, newline: "unix" })
    .sendMail(message);
  await mkdir(settings.outboxDir, { recursive: true });
  const file = fileName(mail.to, new Date());
  await writeFile(path.join(settings.outboxDir, file), info.message as Buffer);
  return { via: "outbox", id: file };
}

export type OutboxEntry = { file: string; to: string; subject: string; date: string; text: string };

/** A header of a raw message, unfolded (RFC 5322 continuation lines); MIME-encoded words are decoded. */
function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const match = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(head);
  const value = (match?.[1] ?? "").replace(/\r?\n[ \t]+/g, " ");
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeURIComponent(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, "%$1")),
  );
}

/** The plain-text part of a message nodemailer wrote (quoted-printable or 7-bit). */
function textPart(raw: string): string {
  const part = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*\n([\s\S]*?)(?:\n--[^\n]+|$)/i.exec(raw)?.[1] ?? "";
  const quoted = /Content-Transfer-Encoding: quoted-printable/i.test(raw);
  return (quoted ? decodeQuotedPrintable(part) : part).trim();
}

/** RFC 2045 quoted-printable: soft line breaks joined, =XX bytes decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i] ?? "", "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The development outbox, newest first: what would have been sent. */
export async function listOutbox(settings: MailSettings, limit = 50): Promise<OutboxEntry[]> {
  const files = await readdir(settings.outboxDir).catch(() => [] as string[]);
  const newest = files
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(
    newest.map(async (file) => {
      const raw = (await readFile(path.join(settings.outboxDir, file), "utf8")).replace(/\r\n/g, "\n");
      return {
        file,
        to: header(raw, "To"),
        subject: header(raw, "Subject"),
        date: header(raw, "Date"),
        text: textPart(raw),
      };
    }),
  );
}
