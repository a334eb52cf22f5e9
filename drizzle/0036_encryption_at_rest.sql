CREATE TABLE "encryption_key_retirements" (
	"key_id" text PRIMARY KEY NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sealed_column_sweeps" (
	"column_key" text PRIMARY KEY NOT NULL,
	"swept_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The audit trail stays append-only, with one exception: sealing its details (the keys command's
-- rotation and the upgrade sweep) may rewrite `details` alone, in a transaction that says so.
-- The app's own role has no UPDATE on the table at all (db/connect.ts), so only the owner can.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('coverdesk.resealing', true) = 'on'
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.action, NEW.pull_id, NEW.subject_user_id)
         IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_name, OLD.action, OLD.pull_id, OLD.subject_user_id)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$ LANGUAGE plpgsql;
