CREATE TABLE "api_idempotency" (
	"key_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_idempotency_key_id_idempotency_key_pk" PRIMARY KEY("key_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"secret_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 120 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_idempotency" ADD CONSTRAINT "api_idempotency_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_idempotency_created_at_idx" ON "api_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_keys_created_by_idx" ON "api_keys" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "pulls_api_updated_idx" ON "pulls" USING btree ("updated_at","pull_id") WHERE "pulls"."listed";--> statement-breakpoint
-- pulls.updated_at is the API's "changed since": the service's data (set by the ingest) and the
-- agency's own decisions on the pull, whoever writes them (the stage form, assignment, the
-- speed-to-lead rule, carry-over, the API). Kept here so that no writer can forget it; the
-- columns the app keeps for itself (seen, first touch, monitored) do not count as a change.
CREATE OR REPLACE FUNCTION pulls_touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER pulls_touch_updated_at
  BEFORE UPDATE OF stage, assignee_id, won_premium_cents, lost_reason, lost_category, lost_to_carrier, lost_to_premium_cents, is_archived ON pulls
  FOR EACH ROW
  WHEN (OLD.stage IS DISTINCT FROM NEW.stage
     OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id
     OR OLD.won_premium_cents IS DISTINCT FROM NEW.won_premium_cents
     OR OLD.lost_reason IS DISTINCT FROM NEW.lost_reason
     OR OLD.lost_category IS DISTINCT FROM NEW.lost_category
     OR OLD.lost_to_carrier IS DISTINCT FROM NEW.lost_to_carrier
     OR OLD.lost_to_premium_cents IS DISTINCT FROM NEW.lost_to_premium_cents
     OR OLD.is_archived IS DISTINCT FROM NEW.is_archived)
  EXECUTE FUNCTION pulls_touch_updated_at();
