import type { FormAction } from "@/lib/core/form-state";
import { CopyLink, EmailLink, MakeCoverdeskPage, WithdrawCoverdeskPage } from "./reconnect-actions";

/** The account's open Coverdesk page to send, or the button that makes one. */
export function CoverdeskPageLink({
  url,
  email,
  monitoringId,
  open,
  revoke,
}: {
  url: string | null;
  email: string | null;
  monitoringId: string;
  /** Makes the page when there is none. */
  open: FormAction;
  /** Withdraws the open page: the link stops working at once. */
  revoke: FormAction;
}) {
  if (!url) return <MakeCoverdeskPage monitoringId={monitoringId} action={open} />;
  return (
    <>
      <code className="max-w-56 truncate rounded bg-slate-100 px-1" data-testid="coverdesk-page-url">
        {url}
      </code>
      <CopyLink url={url} />
      {email ? <EmailLink email={email} url={url} /> : null}
      <WithdrawCoverdeskPage monitoringId={monitoringId} action={revoke} />
    </>
  );
}
