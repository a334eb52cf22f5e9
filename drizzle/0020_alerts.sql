CREATE TABLE "agency_rules" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"jump_thresholds" jsonb DEFAULT '{"default":10}'::jsonb NOT NULL,
	"digest_hour" integer DEFAULT 7 NOT NULL,
	"queue_alerts_to" text DEFAULT 'MANAGERS' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"pull_id" uuid NOT NULL,
	"account_identifier" text,
	"holder_name" text DEFAULT '' NOT NULL,
	"headline" text NOT NULL,
	"details" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"before_cents" bigint,
	"after_cents" bigint,
	"assignee_id" uuid,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"snoozed_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"done_by" uuid,
	"mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mails" integer,
	"finished_at" timestamp with time zone,
	"requested_by" uuid
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_key_idx" ON "alerts" USING btree ("key");--> statement-breakpoint
CREATE INDEX "alerts_inbox_idx" ON "alerts" USING btree ("assignee_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_unmailed_idx" ON "alerts" USING btree ("created_at") WHERE mailed_at is null;