// The shape of one pull in the seeded book, on its own so that the modules that build a pull
// (lines, types, records) and the book that assembles them (pulls.ts) can all name it without
// importing each other in a circle.

export type SandboxPull = Record<string, unknown> & {
  pull_id: string;
  status: string;
  parent_pull_id: string | null;
  created_at: string;
  account_identifier: string | null;
};
