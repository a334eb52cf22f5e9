CREATE TYPE "public"."user_role" AS ENUM('ADMIN', 'MANAGER', 'AGENT');--> statement-breakpoint
CREATE TYPE "public"."webhook_event_status" AS ENUM('PENDING', 'PROCESSING', 'DONE', 'FAILED', 'IGNORED');--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "user_role" NOT NULL,
	"password_hash" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"pull_id" uuid NOT NULL,
	"policy_id" text NOT NULL,
	"policy_type" text,
	"status" text,
	"carrier_name" text,
	"carrier_friendly_name" text,
	"carrier_policy_number" text,
	"total_premium_cents" bigint,
	"effective_date" date,
	"expiry_date" date,
	CONSTRAINT "policies_pull_id_policy_id_pk" PRIMARY KEY("pull_id","policy_id")
);
--> statement-breakpoint
CREATE TABLE "pulls" (
	"pull_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"type" text,
	"parent_pull_id" uuid,
	"account_identifier" text,
	"first_name" text,
	"last_name" text,
	"sort_name" text DEFAULT '' NOT NULL,
	"email" text,
	"phone" text,
	"provider_name" text,
	"provider_friendly_name" text,
	"is_archived" boolean DEFAULT false NOT NULL,
	"service_created_at" timestamp with time zone,
	"policy_count" integer DEFAULT 0 NOT NULL,
	"total_premium_cents" bigint,
	"next_expiry_date" date,
	"policy_types" text[] DEFAULT '{}' NOT NULL,
	"raw" jsonb NOT NULL,
	"payload_problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dedup_key" text NOT NULL,
	"event_type" text NOT NULL,
	"pull_id" uuid,
	"status" "webhook_event_status" DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");--> statement-breakpoint
CREATE INDEX "policies_expiry_date_idx" ON "policies" USING btree ("expiry_date");--> statement-breakpoint
CREATE INDEX "policies_policy_type_idx" ON "policies" USING btree ("policy_type");--> statement-breakpoint
CREATE INDEX "policies_carrier_name_idx" ON "policies" USING btree ("carrier_name");--> statement-breakpoint
CREATE INDEX "pulls_service_created_at_idx" ON "pulls" USING btree ("service_created_at");--> statement-breakpoint
CREATE INDEX "pulls_sort_name_idx" ON "pulls" USING btree ("sort_name");--> statement-breakpoint
CREATE INDEX "pulls_status_idx" ON "pulls" USING btree ("status");--> statement-breakpoint
CREATE INDEX "pulls_account_identifier_idx" ON "pulls" USING btree ("account_identifier");--> statement-breakpoint
CREATE INDEX "pulls_parent_pull_id_idx" ON "pulls" USING btree ("parent_pull_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_dedup_key_unique" ON "webhook_events" USING btree ("dedup_key");--> statement-breakpoint
CREATE INDEX "webhook_events_due_idx" ON "webhook_events" USING btree ("next_attempt_at") WHERE "webhook_events"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "webhook_events_status_idx" ON "webhook_events" USING btree ("status");--> statement-breakpoint
CREATE INDEX "webhook_events_pull_id_idx" ON "webhook_events" USING btree ("pull_id");