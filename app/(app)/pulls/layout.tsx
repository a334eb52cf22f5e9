import { PullActionsProvider } from "@/components/workflow/pull-actions";
import {
  archivePullAction,
  assignPullAction,
  bulkAssignAction,
  changeMonitoringAction,
  claimPullAction,
  enableMonitoringAction,
  refreshMonitoringAction,
  setStageAction,
  stopMonitoringAction,
} from "./actions";

// The pull pages' forms sit inside shared panels; their actions reach them from here.
export default function PullsLayout({ children }: { children: React.ReactNode }) {
  const actions = {
    assign: assignPullAction,
    claim: claimPullAction,
    bulk: bulkAssignAction,
    setStage: setStageAction,
    enableMonitoring: enableMonitoringAction,
    changeMonitoring: changeMonitoringAction,
    stopMonitoring: stopMonitoringAction,
    refreshMonitoring: refreshMonitoringAction,
    archive: archivePullAction,
  };
  return <PullActionsProvider actions={actions}>{children}</PullActionsProvider>;
}
