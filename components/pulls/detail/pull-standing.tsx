import { CONTACT_ME_TYPE, isReadingType, pullTypeLabel, SERVICING_TYPE } from "@/lib/pulls/pull-types";
import { Instant } from "./dates";

// What the pull is to the agency, when it is not simply the newest reading of a linked account:
// deleted at the service, a pull of another type, or a reading the service sent without the
// account identifier that would join it to its account's other pulls.

export type PullStandingProps = {
  type: string | null;
  accountKey: string | null;
  deletedAt: Date | null;
  parentPullId: string | null;
};

function note(type: string | null): string | null {
  if (type === CONTACT_ME_TYPE)
    return "A new lead: the consumer asked to be contacted. The pull carries their contact details, not an insurance account.";
  if (type === SERVICING_TYPE)
    return "A servicing pull: the service changing a policy at the carrier for a client. It is shown under its servicing request and is not a reading of the account.";
  if (!isReadingType(type))
    return `${pullTypeLabel(type)}: kept and shown as it came. It is not a reading of a linked account, so it never replaces a household's policies.`;
  return null;
}

export async function PullStanding({ type, accountKey, deletedAt, parentPullId }: PullStandingProps) {
  const lines: React.ReactNode[] = [];
  if (deletedAt)
    lines.push(
      <>
        This pull was deleted at the service (<Instant value={deletedAt.toISOString()} />
        ). It is kept here, but no longer listed or counted.
      </>,
    );
  const typeNote = note(type);
  if (typeNote) lines.push(typeNote);
  else if (accountKey === null && parentPullId === null)
    lines.push(
      "This pull is not joined to an account: the service sent no account identifier, so it stands alone rather than beside the account's other pulls.",
    );
  if (lines.length === 0) return null;
  return (
    <div
      className="space-y-1 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900"
      role="note"
      data-testid="pull-standing"
    >
      {lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
    </div>
  );
}
