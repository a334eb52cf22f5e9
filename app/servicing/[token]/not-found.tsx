import { ServicingCard } from "@/components/servicing/servicing-card";

// A confirm link that is not ours (mistyped, cut short, or made under an old secret).
export default function ServicingLinkNotFound() {
  return (
    <ServicingCard title="This link is not valid">
      <p className="text-slate-700">
        Check that you opened the whole link from your agent&apos;s message, or ask your agent for a new one.
      </p>
    </ServicingCard>
  );
}
