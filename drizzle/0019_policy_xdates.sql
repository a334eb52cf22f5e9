CREATE TABLE "calendar_feeds" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_read_at" timestamp with time zone,
	CONSTRAINT "calendar_feeds_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "policy_xdates" (
	"pull_id" uuid NOT NULL,
	"policy_id" text NOT NULL,
	"account_identifier" text,
	"policy_type" text,
	"carrier_name" text,
	"carrier_label" text,
	"carrier_policy_number" text,
	"status" text,
	"annual_premium_cents" bigint,
	"expiry_date" date,
	"term_months" integer,
	"x_date" date,
	"basis" text,
	"reason" text,
	"note" text DEFAULT '' NOT NULL,
	"assignee_id" uuid,
	"stage" "pull_stage" DEFAULT 'WORKING' NOT NULL,
	"public_alias" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_xdates_pull_id_policy_id_pk" PRIMARY KEY("pull_id","policy_id")
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_xdates" ADD CONSTRAINT "policy_xdates_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policy_xdates_range_idx" ON "policy_xdates" USING btree ("x_date","annual_premium_cents" DESC NULLS LAST,"assignee_id","stage","policy_type","carrier_label","public_alias","pull_id","policy_id") WHERE "policy_xdates"."x_date" is not null;--> statement-breakpoint
CREATE INDEX "policy_xdates_assignee_idx" ON "policy_xdates" USING btree ("assignee_id","x_date");--> statement-breakpoint
CREATE INDEX "policy_xdates_unknown_idx" ON "policy_xdates" USING btree ("reason","assignee_id") WHERE "policy_xdates"."x_date" is null;--> statement-breakpoint
CREATE INDEX "policy_xdates_account_idx" ON "policy_xdates" USING btree ("account_identifier");--> statement-breakpoint
-- policy_xdates copies its pull's assignee, stage and link so the X-date list filters and sums
-- over one table; every assignment, stage change and carry-over updates pulls, and this
-- trigger carries the change to the copies in the same transaction, whichever command made it.
CREATE OR REPLACE FUNCTION policy_xdates_follow_pull() RETURNS trigger AS $$
BEGIN
  UPDATE policy_xdates
     SET assignee_id = NEW.assignee_id, stage = NEW.stage, public_alias = NEW.public_alias, updated_at = now()
   WHERE pull_id = NEW.pull_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER policy_xdates_follow_pull
  AFTER UPDATE OF assignee_id, stage, public_alias ON pulls
  FOR EACH ROW
  WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id OR OLD.stage IS DISTINCT FROM NEW.stage OR OLD.public_alias IS DISTINCT FROM NEW.public_alias)
  EXECUTE FUNCTION policy_xdates_follow_pull();
