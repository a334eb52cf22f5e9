CREATE TABLE "rate_limit_windows" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_windows_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "reconnect_pages" (
	"id" text PRIMARY KEY NOT NULL,
	"monitoring_id" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"session_pull_id" uuid,
	"session_jwt" text,
	"session_started_at" timestamp with time zone,
	"answered_at_sequence" integer,
	"answered_at" timestamp with time zone,
	"closed_reason" text,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_window_start_idx" ON "rate_limit_windows" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "reconnect_pages_monitoring_id_idx" ON "reconnect_pages" USING btree ("monitoring_id") WHERE "reconnect_pages"."completed_at" is null;