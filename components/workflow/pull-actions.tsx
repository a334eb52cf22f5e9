"use client";

import { createContext, useContext } from "react";
import type { FormAction } from "@/lib/core/form-state";

// The server actions of the pull pages, for the forms inside their panels (assignment, stage,
// monitoring, the list's selection bar). Components import no action from app/: the pull pages'
// layout, app/(app)/pulls/layout.tsx, hands them down here; other pages pass theirs as props.

export type PullActions = {
  assign: FormAction;
  claim: FormAction;
  bulk: FormAction;
  setStage: FormAction;
  enableMonitoring: FormAction;
  changeMonitoring: FormAction;
  stopMonitoring: FormAction;
  refreshMonitoring: FormAction;
  archive: FormAction;
};

const PullActionsContext = createContext<PullActions | null>(null);

export function PullActionsProvider({ actions, children }: { actions: PullActions; children: React.ReactNode }) {
  return <PullActionsContext value={actions}>{children}</PullActionsContext>;
}

export function usePullActions(): PullActions {
  const actions = useContext(PullActionsContext);
  if (!actions) throw new Error("No pull actions here: the pull pages get them from app/(app)/pulls/layout.tsx");
  return actions;
}
