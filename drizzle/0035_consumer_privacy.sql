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
-- The audit trail stays append-only, with one exception: an erased consumer's rows may be
-- redacted. The only edit the trigger lets through empties a row's details to {"redacted": true}
-- and clears its pull id, every other column unchanged: it can blank what a row said of a
-- person, never forge or remove a row.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.id = OLD.id
     AND NEW.at = OLD.at
     AND NEW.action = OLD.action
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_name IS NOT DISTINCT FROM OLD.actor_name
     AND NEW.subject_user_id IS NOT DISTINCT FROM OLD.subject_user_id
     AND NEW.pull_id IS NULL
     AND NEW.details = '{"redacted": true}'::jsonb THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The app's role may only SELECT and INSERT on audit_events (db/connect.ts grantAppRole); this
-- function, owned by the tables' owner, is its one way to redact: the rows of pulls that are no
-- longer stored (it refuses a pull still there), and rows whose details contain one of the
-- given texts (an erased person's email or VIN in an export's filters), at least 6 characters
-- so that no short word blanks the trail. The tombstone (CONSUMER_ERASED) is never touched.
CREATE OR REPLACE FUNCTION redact_audit_events(erased_pull_ids uuid[], needles text[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  redacted integer;
BEGIN
  IF EXISTS (SELECT 1 FROM pulls WHERE pull_id = ANY(coalesce(erased_pull_ids, '{}'::uuid[]))) THEN
    RAISE EXCEPTION 'redact_audit_events: a pull named is still stored';
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(coalesce(needles, '{}'::text[])) AS n(t) WHERE length(n.t) < 6) THEN
    RAISE EXCEPTION 'redact_audit_events: a text to look for is shorter than 6 characters';
  END IF;
  UPDATE audit_events SET details = '{"redacted": true}'::jsonb, pull_id = NULL
  WHERE action <> 'CONSUMER_ERASED'
    AND (pull_id = ANY(coalesce(erased_pull_ids, '{}'::uuid[]))
      OR EXISTS (SELECT 1 FROM unnest(coalesce(needles, '{}'::text[])) AS n(t)
                 WHERE strpos(lower(audit_events.details::text), lower(n.t)) > 0));
  GET DIAGNOSTICS redacted = ROW_COUNT;
  RETURN redacted;
END;
$$;
