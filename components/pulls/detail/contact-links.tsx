// Phones, emails and web addresses from the service, as links when they are safe to follow
// and as plain text otherwise: a value like "javascript:…" never becomes an href.

import { LINK_CLASS } from "@/components/ui/link-class";
import { cn } from "@/components/ui/class-names";

export function PhoneLink({ phone, extension }: { phone: string | null | undefined; extension?: string | null }) {
  if (!phone) return <>—</>;
  const digits = phone.replace(/[^\d+]/g, "");
  const label = extension ? `${phone} ext. ${extension}` : phone;
  if (digits.replace(/\D/g, "").length < 7) return <>{label}</>;
  return (
    <a href={`tel:${digits}`} className={LINK_CLASS}>
      {label}
    </a>
  );
}

const EMAIL = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/;

export function EmailLink({ email }: { email: string | null | undefined }) {
  if (!email) return <>—</>;
  if (!EMAIL.test(email)) return <>{email}</>;
  return (
    <a href={`mailto:${email}`} className={cn(LINK_CLASS, "break-all")}>
      {email}
    </a>
  );
}

export function WebLink({ url }: { url: string | null | undefined }) {
  if (!url) return <>—</>;
  let safe: URL | null = null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:" || parsed.protocol === "http:") safe = parsed;
  } catch {
    safe = null;
  }
  if (!safe) return <>{url}</>;
  return (
    <a
      href={safe.toString()}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={cn(LINK_CLASS, "break-all")}
    >
      {url}
    </a>
  );
}
