import { cn } from "@/components/ui/class-names";
import { LINK_CLASS } from "@/components/ui/link-class";
import type { HandoffFile } from "@/lib/handoff/export";
import { SubHeading } from "./detail-section";

// The hand-off to the agency's rating system: the EZLynx applicant files the pull makes (auto,
// home), each a download, with what it leaves out and what to check in EZLynx after the import,
// read before the file is sent on. Shown only when the pull has an auto or a home.

const TITLES: Record<HandoffFile["kind"], { title: string; link: string }> = {
  "ezlynx-auto": { title: "EZLynx auto (EZAUTO)", link: "Download the EZLynx auto file (XML)" },
  "ezlynx-home": { title: "EZLynx home (EZHOME)", link: "Download the EZLynx home file (XML)" },
};

function Lines({ label, lines, testId }: { label: string; lines: string[]; testId: string }) {
  if (lines.length === 0) return null;
  return (
    <div data-testid={testId}>
      <p className="mt-2 text-sm font-medium text-slate-700">{label}</p>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

export function HandoffPanel({ files }: { files: HandoffFile[] }) {
  return (
    <div data-testid="handoff-panel">
      <p className="text-sm text-slate-600">
        Files EZLynx&apos;s Import Applicant reads (schema V200), and other agency systems too. Each download is
        recorded in the pull&apos;s history.
      </p>
      {files.map((file) => (
        <section key={file.kind} data-testid={`handoff-${file.kind}`} aria-labelledby={`handoff-${file.kind}-title`}>
          <SubHeading level={3}>
            <span id={`handoff-${file.kind}-title`}>{TITLES[file.kind].title}</span>
          </SubHeading>
          <a
            href={file.href}
            download
            className={cn(LINK_CLASS, "text-sm font-medium")}
            data-testid={`${file.kind}-link`}
          >
            {TITLES[file.kind].link}
          </a>
          <Lines label="What the file leaves out" lines={file.leftOut} testId={`${file.kind}-left-out`} />
          <Lines label="Check in EZLynx after the import" lines={file.toCheck} testId={`${file.kind}-to-check`} />
        </section>
      ))}
    </div>
  );
}
