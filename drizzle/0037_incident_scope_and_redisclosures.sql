CREATE TABLE "redisclosures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"pull_ids" uuid[] NOT NULL,
	"pull_count" integer NOT NULL,
	"data_kinds" text[] NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"purpose" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "pull_ids" uuid[];--> statement-breakpoint
CREATE INDEX "redisclosures_at_idx" ON "redisclosures" USING btree ("at");--> statement-breakpoint
CREATE INDEX "redisclosures_pull_ids_idx" ON "redisclosures" USING gin ("pull_ids");--> statement-breakpoint
CREATE INDEX "audit_events_session_id_idx" ON "audit_events" USING btree ("session_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_address_idx" ON "audit_events" USING btree ("address","at");--> statement-breakpoint
-- The redisclosure log is append-only, like the audit trail (0007): kept five years, never edited.
CREATE OR REPLACE FUNCTION redisclosures_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'redisclosures is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER redisclosures_no_update_or_delete
  BEFORE UPDATE OR DELETE ON redisclosures
  FOR EACH ROW EXECUTE FUNCTION redisclosures_append_only();
