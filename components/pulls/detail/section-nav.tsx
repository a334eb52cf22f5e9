// The page's table of contents: plain anchor links, so it works without JavaScript and from
// the keyboard, and wraps on a phone instead of widening the page.

import { CARD_CLASS } from "@/components/ui/card";
import { cn } from "@/components/ui/class-names";

export type SectionLink = { id: string; title: string; count?: number };

export function SectionNav({ sections }: { sections: SectionLink[] }) {
  return (
    <nav aria-label="On this page" className={cn(CARD_CLASS, "px-4 py-3")}>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              className="rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              {section.title}
              {section.count !== undefined ? <span className="text-slate-600"> ({section.count})</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
