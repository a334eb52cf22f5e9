// The shape of a consumer's export (lib/privacy/export.ts builds it, export-pdf.ts draws it).

export type ConsumerExport = {
  generatedAt: string;
  request: { id: string; kind: string; receivedOn: string; dueOn: string; reference: string };
  pulls: Array<{
    pullId: string;
    payload: unknown;
    earlierVersions: Array<{ fetchedAt: string; replacedAt: string; payload: unknown }>;
    agency: {
      stage: string;
      assignedTo: string | null;
      stageChangedAt: string | null;
      lostReason: string | null;
      wonPremiumCents: number | null;
      archived: boolean;
    };
    findingDecisions: unknown[];
    enrichmentAnswers: unknown[];
    alerts: unknown[];
    xDates: unknown[];
    servicingRequests: unknown[];
    monitorings: unknown[];
    monitoringEvents: unknown[];
    dealReturns: unknown[];
    lostDecisions: unknown[];
    history: Array<{ at: string; action: string; by: string | null; details: unknown }>;
  }>;
};
