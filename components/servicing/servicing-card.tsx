import { ConsumerFrame } from "@/components/ui/consumer-frame";

// The frame of the consumer's confirm page, with a word on what confirming does.
export function ServicingCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <ConsumerFrame
      title={title}
      note="Your insurance agency asked for this change on your behalf. Nothing changes on your policy unless you confirm it here; your answer goes, over an encrypted connection, to the secure service that connects to your insurance company."
    >
      {children}
    </ConsumerFrame>
  );
}
