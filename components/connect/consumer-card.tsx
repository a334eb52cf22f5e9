import { ConsumerFrame } from "@/components/ui/consumer-frame";

// The frame of the consumer's reconnect pages, with a word on how their login is handled.
export function ConsumerCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <ConsumerFrame
      title={title}
      note="This page passes your username, password and codes straight on, over an encrypted connection, to the secure service that connects to your insurance company. Your agency never stores them."
    >
      {children}
    </ConsumerFrame>
  );
}
