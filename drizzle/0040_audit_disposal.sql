-- Disposal of old audit rows under the retention schedule (lib/privacy/disposal.ts). The trail stays
-- append-only (0036's resealing exception kept, now also fixing the columns 0037 added): the app's
-- role has no DELETE on it, and the trigger refuses every other UPDATE and every DELETE except one made through dispose_audit_events() below, of rows older than both the cutoff
-- that function set for its own transaction and the legal minimum of 60 months (five years: the
-- incident report's look-back and the DPPA's five years for records of who received driver data).
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $$
DECLARE
  disposal_before timestamptz := nullif(current_setting('coverdesk.audit_disposal_before', true), '')::timestamptz;
BEGIN
  -- Sealing (0036): the keys command and the upgrade sweep may rewrite `details` alone.
  IF TG_OP = 'UPDATE' AND current_setting('coverdesk.resealing', true) = 'on'
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.action, NEW.pull_id, NEW.subject_user_id,
          NEW.session_id, NEW.address, NEW.pull_ids)
         IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_name, OLD.action, OLD.pull_id,
          OLD.subject_user_id, OLD.session_id, OLD.address, OLD.pull_ids)
  THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND disposal_before IS NOT NULL
     AND OLD.at < disposal_before AND OLD.at < now() - interval '60 months' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Runs as its owner (the tables' owner), so the app's role can dispose of old rows without being
-- able to delete any row itself. Deletes at most max_rows rows older than least(before, now() - 60
-- months), leaving those of the pulls in keep_pull_ids (legal holds); answers how many went.
CREATE OR REPLACE FUNCTION dispose_audit_events(before timestamptz, keep_pull_ids uuid[], max_rows integer)
RETURNS integer
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  cutoff timestamptz := least(before, now() - interval '60 months');
  removed integer;
BEGIN
  IF before IS NULL OR max_rows IS NULL OR max_rows < 1 OR max_rows > 10000 THEN
    RAISE EXCEPTION 'dispose_audit_events: a cutoff and a batch of 1 to 10000 rows are required';
  END IF;
  PERFORM set_config('coverdesk.audit_disposal_before', cutoff::text, true);
  DELETE FROM audit_events
  WHERE id IN (
    SELECT a.id FROM audit_events a
    WHERE a.at < cutoff
      AND (a.pull_id IS NULL OR NOT (a.pull_id = ANY (coalesce(keep_pull_ids, '{}'::uuid[]))))
    ORDER BY a.at, a.id
    LIMIT max_rows
  );
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('coverdesk.audit_disposal_before', '', true);
  RETURN removed;
END;
$$;
