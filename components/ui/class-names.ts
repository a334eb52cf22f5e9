// Joins class lists, skipping the empty ones: a kit component's own classes, then the caller's.
export function cn(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(" ");
}
