CREATE TABLE "consumer_index" (
	"pull_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "consumer_index_pull_id_kind_hash_pk" PRIMARY KEY("pull_id","kind","hash")
);
--> statement-breakpoint
CREATE TABLE "erased_subjects" (
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" uuid,
	"refusals" integer DEFAULT 0 NOT NULL,
	"last_refused_at" timestamp with time zone,
	CONSTRAINT "erased_subjects_kind_hash_pk" PRIMARY KEY("kind","hash")
);
--> statement-breakpoint
CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"received_on" date NOT NULL,
	"due_on" date NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"pull_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"opened_by" uuid,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"completed_by" uuid,
	"erased_counts" jsonb,
	"service_pull_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"service_told_at" timestamp with time zone,
	"service_told_by" uuid
);
--> statement-breakpoint
ALTER TABLE "consumer_index" ADD CONSTRAINT "consumer_index_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consumer_index_hash_idx" ON "consumer_index" USING btree ("kind","hash");--> statement-breakpoint
CREATE INDEX "privacy_requests_status_idx" ON "privacy_requests" USING btree ("status","due_on");--> statement-breakpoint
-- The audit trail stays append-only, with three exceptions, each an edit that cannot forge or
-- remove what a row says happened: resealing (0036: `details` alone rewritten, every other column
-- fixed), disposal of rows over five years old (0040, inside dispose_audit_events), and an erased
-- consumer's redaction (below): a row's details emptied to {"redacted": true} and its pull id
-- cleared, or an erased pull's id taken out of the pulls a row lists (an export of many), every
-- other column unchanged.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $$
DECLARE
  disposal_before timestamptz := nullif(current_setting('coverdesk.audit_disposal_before', true), '')::timestamptz;
  fixed_kept boolean;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    fixed_kept := (NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.action, NEW.subject_user_id, NEW.session_id, NEW.address)
      IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor_id, OLD.actor_name, OLD.action, OLD.subject_user_id, OLD.session_id, OLD.address);
    IF fixed_kept AND current_setting('coverdesk.resealing', true) = 'on'
       AND (NEW.pull_id, NEW.pull_ids) IS NOT DISTINCT FROM (OLD.pull_id, OLD.pull_ids) THEN
      RETURN NEW;
    END IF;
    IF fixed_kept
       AND coalesce(NEW.pull_ids, '{}'::uuid[]) <@ coalesce(OLD.pull_ids, '{}'::uuid[])
       AND ((NEW.pull_id IS NULL AND NEW.details = '{"redacted": true}'::jsonb)
         OR (NEW.pull_id IS NOT DISTINCT FROM OLD.pull_id AND NEW.details = OLD.details)) THEN
      RETURN NEW;
    END IF;
  END IF;
  IF TG_OP = 'DELETE' AND disposal_before IS NOT NULL
     AND OLD.at < disposal_before AND OLD.at < now() - interval '60 months' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The app's role may only SELECT and INSERT on audit_events (db/connect.ts grantAppRole); this
-- function, owned by the tables' owner, is its one way to redact: the rows of pulls that are no
-- longer stored (it refuses a pull still there), and rows whose details contain one of the
-- given texts (an erased person's email or VIN in an export's filters), at least 6 characters
-- so that no short word blanks the trail; an erased pull's id also leaves the list of pulls of
-- any row (an export of many consumers), the rest of that row kept. The tombstone
-- (CONSUMER_ERASED) is never touched.
CREATE OR REPLACE FUNCTION redact_audit_events(erased_pull_ids uuid[], needles text[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  erased uuid[] := coalesce(erased_pull_ids, '{}'::uuid[]);
  redacted integer;
  trimmed integer;
BEGIN
  IF EXISTS (SELECT 1 FROM pulls WHERE pull_id = ANY(erased)) THEN
    RAISE EXCEPTION 'redact_audit_events: a pull named is still stored';
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(coalesce(needles, '{}'::text[])) AS n(t) WHERE length(n.t) < 6) THEN
    RAISE EXCEPTION 'redact_audit_events: a text to look for is shorter than 6 characters';
  END IF;
  UPDATE audit_events
  SET details = '{"redacted": true}'::jsonb,
      pull_id = NULL,
      pull_ids = (SELECT array_agg(p) FROM unnest(audit_events.pull_ids) AS u(p) WHERE NOT p = ANY(erased))
  WHERE action <> 'CONSUMER_ERASED'
    AND (pull_id = ANY(erased)
      OR EXISTS (SELECT 1 FROM unnest(coalesce(needles, '{}'::text[])) AS n(t)
                 WHERE strpos(lower(audit_events.details::text), lower(n.t)) > 0));
  GET DIAGNOSTICS redacted = ROW_COUNT;
  UPDATE audit_events
  SET pull_ids = (SELECT array_agg(p) FROM unnest(audit_events.pull_ids) AS u(p) WHERE NOT p = ANY(erased))
  WHERE action <> 'CONSUMER_ERASED' AND pull_ids && erased;
  GET DIAGNOSTICS trimmed = ROW_COUNT;
  RETURN redacted + trimmed;
END;
$$;
