import { Badge } from "@/components/ui/badge";

// A request's 45-day clock, as the desk shows it: days left (amber in the last week), overdue in
// red, or answered.
export function RequestClock({ daysLeft }: { daysLeft: number | null }) {
  if (daysLeft === null) return <Badge tone="success">Answered</Badge>;
  if (daysLeft < 0)
    return (
      <span data-testid="request-overdue">
        <Badge tone="danger">
          Overdue by {-daysLeft} day{daysLeft === -1 ? "" : "s"}
        </Badge>
      </span>
    );
  const tone = daysLeft <= 7 ? "warning" : "info";
  return <Badge tone={tone}>{daysLeft === 0 ? "Due today" : `${daysLeft} day${daysLeft === 1 ? "" : "s"} left`}</Badge>;
}
