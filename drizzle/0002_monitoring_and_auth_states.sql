CREATE TABLE "monitoring_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"inbox_event_id" bigint NOT NULL,
	"monitoring_id" text,
	"pull_id" uuid NOT NULL,
	"type" text,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"document_ids" text[] DEFAULT '{}' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitorings" (
	"monitoring_id" text PRIMARY KEY NOT NULL,
	"initial_pull_id" uuid,
	"latest_pull_id" uuid,
	"account_identifier" text,
	"status" text,
	"interval" text,
	"next_pull_date" timestamp with time zone,
	"stop_after_date" timestamp with time zone,
	"reconnect_requested_at" timestamp with time zone,
	"reconnect_pull_id" uuid,
	"reconnect_auth_status" text,
	"reconnect_url" text,
	"reconnect_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pull_auth_states" (
	"pull_id" uuid PRIMARY KEY NOT NULL,
	"auth_status" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"login_error_message" text,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_events_inbox_event_id_unique" ON "monitoring_events" USING btree ("inbox_event_id");--> statement-breakpoint
CREATE INDEX "monitoring_events_monitoring_id_idx" ON "monitoring_events" USING btree ("monitoring_id");--> statement-breakpoint
CREATE INDEX "monitoring_events_pull_id_idx" ON "monitoring_events" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "monitorings_initial_pull_id_idx" ON "monitorings" USING btree ("initial_pull_id");--> statement-breakpoint
CREATE INDEX "monitorings_latest_pull_id_idx" ON "monitorings" USING btree ("latest_pull_id");--> statement-breakpoint
CREATE INDEX "monitorings_account_identifier_idx" ON "monitorings" USING btree ("account_identifier");--> statement-breakpoint
CREATE INDEX "monitorings_reconnect_requested_at_idx" ON "monitorings" USING btree ("reconnect_requested_at");