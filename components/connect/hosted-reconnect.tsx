import { buttonClass } from "@/components/ui/button";

// The reconnect page when the agency cannot reconnect accounts on its own page (the service
// refused the whitelabel exchange): the consumer signs in on the service's own secure page,
// through the link the service gave for the account. Never the login form: nothing is sent from here.

export function HostedReconnect({ url, carrier }: { url: string | null; carrier: string }) {
  if (!url)
    return (
      <p role="alert" className="text-slate-800" data-testid="reconnect-hosted">
        Your agency reconnects accounts on the secure page of the service it works with, and no link to it is at hand.
        Ask your agent for a new link.
      </p>
    );
  return (
    <div data-testid="reconnect-hosted" className="space-y-3">
      <p className="text-slate-800">
        Your agency reconnects accounts on the secure page of the service it works with, not here. Sign in to your{" "}
        {carrier} account there.
      </p>
      <a href={url} rel="noopener noreferrer" className={buttonClass({ size: "lg", className: "inline-block" })}>
        Continue to the secure reconnect page
      </a>
    </div>
  );
}
