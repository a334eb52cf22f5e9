import Link from "next/link";
import { pullTypeNote, SERVICING_TYPE, STANDS_ALONE_NOTE, standsAlone } from "@/lib/pulls/pull-types";
import { Instant } from "./dates";

// What the pull is to the agency, when it is not simply the newest reading of a linked account:
// deleted at the service, a pull of another type, or a reading the service sent without the
// account identifier that would join it to its account's other pulls.

export type PullStandingProps = {
  type: string | null;
  status: string | null;
  accountKey: string | null;
  deletedAt: Date | null;
  parentPullId: string | null;
  /** For a SERVICING pull: the client's pull whose servicing request it answers. */
  servicedPullId: string | null;
};

export function PullStanding({ type, status, accountKey, deletedAt, parentPullId, servicedPullId }: PullStandingProps) {
  const lines: React.ReactNode[] = [];
  if (deletedAt)
    lines.push(
      <>
        This pull was deleted at the service (<Instant value={deletedAt.toISOString()} />
        ). It is kept here, but no longer listed or counted.
      </>,
    );
  const typeNote = pullTypeNote(type);
  if (typeNote) lines.push(typeNote);
  if (type === SERVICING_TYPE && servicedPullId)
    lines.push(
      <Link href={`/pulls/${servicedPullId}`} className="font-medium underline">
        Open the client&apos;s pull and its servicing requests
      </Link>,
    );
  if (standsAlone({ type, status, accountKey, parentPullId })) lines.push(STANDS_ALONE_NOTE);
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
