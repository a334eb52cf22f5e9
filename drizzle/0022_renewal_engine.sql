CREATE TABLE "deal_returns" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"pull_id" uuid NOT NULL,
	"account_identifier" text,
	"x_date" date,
	"carrier_label" text,
	"policy_type" text,
	"assignee_id" uuid,
	"previous_assignee_id" uuid,
	"lost_category" text,
	"lost_to_carrier" text,
	"lost_reason" text,
	"premium_then_cents" bigint,
	"renewal_premium_cents" bigint,
	"headline" text NOT NULL,
	"returned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"won_at" timestamp with time zone,
	"won_premium_cents" bigint
);
--> statement-breakpoint
CREATE TABLE "finding_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_key" text NOT NULL,
	"pull_id" uuid NOT NULL,
	"finding_key" text NOT NULL,
	"decision" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "household_gaps" (
	"pull_id" uuid PRIMARY KEY NOT NULL,
	"account_identifier" text,
	"holder_name" text DEFAULT '' NOT NULL,
	"policy_count" integer DEFAULT 0 NOT NULL,
	"carrier_count" integer DEFAULT 0 NOT NULL,
	"lines" text[] DEFAULT '{}'::text[] NOT NULL,
	"gaps" text[] DEFAULT '{}'::text[] NOT NULL,
	"annual_premium_cents" bigint,
	"premium_in_play_cents" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "first_touched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "speed_to_lead_at" timestamp with time zone;--> statement-breakpoint
-- Pulls worked before this column existed: their first touch is the earliest sign of work
-- the table kept (the assignee opening it, or a stage decided here rather than carried over).
-- Before the indexes below, so the update does not maintain them row by row.
UPDATE "pulls" SET "first_touched_at" = least("assignee_seen_at", CASE WHEN NOT "decision_carried" THEN "stage_changed_at" END)
WHERE "first_touched_at" IS NULL AND ("assignee_seen_at" IS NOT NULL OR ("stage_changed_at" IS NOT NULL AND NOT "decision_carried"));--> statement-breakpoint
ALTER TABLE "monitorings" ADD COLUMN "planned_refresh_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitorings" ADD COLUMN "planned_refresh_reason" jsonb;--> statement-breakpoint
ALTER TABLE "monitorings" ADD COLUMN "planned_refresh_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitorings" ADD COLUMN "planned_refresh_error" text;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "lead_time_days" integer DEFAULT 45 NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "refresh_budget_per_month" integer;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "speed_to_lead_minutes" integer;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "speed_to_lead_action" text DEFAULT 'RAISE' NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "review_rules" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_rules" ADD COLUMN "speed_to_lead_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "household_gaps" ADD CONSTRAINT "household_gaps_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_returns_key_idx" ON "deal_returns" USING btree ("key");--> statement-breakpoint
CREATE INDEX "deal_returns_pull_idx" ON "deal_returns" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "deal_returns_assignee_idx" ON "deal_returns" USING btree ("assignee_id","returned_at");--> statement-breakpoint
CREATE INDEX "deal_returns_returned_at_idx" ON "deal_returns" USING btree ("returned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "finding_decisions_account_finding_idx" ON "finding_decisions" USING btree ("account_key","finding_key");--> statement-breakpoint
CREATE INDEX "household_gaps_gaps_idx" ON "household_gaps" USING gin ("gaps");--> statement-breakpoint
CREATE INDEX "household_gaps_policy_count_idx" ON "household_gaps" USING btree ("policy_count","premium_in_play_cents" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pulls_untouched_idx" ON "pulls" USING btree ("created_at") WHERE "pulls"."first_touched_at" is null and "pulls"."speed_to_lead_at" is null and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX "pulls_report_touch_idx" ON "pulls" USING btree ("service_created_at","public_alias","assignee_id","first_touched_at","widget_id","pull_id") WHERE "pulls"."parent_pull_id" is null and "pulls"."first_touched_at" is not null;
