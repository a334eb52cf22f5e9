CREATE TABLE "agencyzoom_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"pipeline_id" integer,
	"stage_id" integer,
	"lead_source_id" integer,
	"country" text DEFAULT 'US' NOT NULL,
	"fallback_assignee_id" integer,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agencyzoom_settings_one_row" CHECK ("agencyzoom_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "agencyzoom_user_map" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"agencyzoom_user_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoffs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pull_id" uuid NOT NULL,
	"target" text NOT NULL,
	"external_id" text NOT NULL,
	"opportunity_id" text,
	"url" text,
	"sent_by" uuid,
	"sent_by_name" text NOT NULL,
	"first_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"send_count" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agencyzoom_settings" ADD CONSTRAINT "agencyzoom_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agencyzoom_user_map" ADD CONSTRAINT "agencyzoom_user_map_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agencyzoom_settings_updated_by_idx" ON "agencyzoom_settings" USING btree ("updated_by");--> statement-breakpoint
CREATE UNIQUE INDEX "handoffs_pull_target_idx" ON "handoffs" USING btree ("pull_id","target");--> statement-breakpoint
CREATE INDEX "handoffs_sent_by_idx" ON "handoffs" USING btree ("sent_by");