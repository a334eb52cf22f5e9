import type { Part } from "@/lib/service-connection/overview";

// A part of the Service connection page the service did not answer just now: why, in its place.

export function UnavailablePart({ part }: { part: Part<unknown> }) {
  return part.ok ? null : (
    <p role="status" className="text-sm text-amber-800">
      {part.message}
    </p>
  );
}
