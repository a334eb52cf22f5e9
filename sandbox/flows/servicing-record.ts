// What the sandbox keeps of one servicing action: named by the team's state (team-state.ts),
// which holds them, and by the flow that runs them (servicing.ts), which reads that state, so
// it lives apart from both to keep them from importing each other in a circle.

export type ServicingStatus =
  | "QUEUED"
  | "IN_PROGRESS"
  | "INTERNAL_ERROR"
  | "PROVIDER_ERROR"
  | "VALIDATION_ERROR"
  | "WAITING_FOR_CONSUMER_CONFIRMATION"
  | "SUBMITTING_CONFIRMATION"
  | "UNCONFIRMED"
  | "VERIFIED"
  | "VERIFICATION_FAILED"
  | "SUCCESS";

export type ServicingRecord = {
  servicing_action_id: string;
  type: string;
  payload: Record<string, unknown>;
  confirmation_data: Record<string, unknown> | null;
  status: ServicingStatus;
  validation_error_type: string | null;
  /** The SERVICING pull the action belongs to, and the pull whose login it reuses. */
  pullId: string;
  sourcePullId: string;
  createdAt: string;
};
