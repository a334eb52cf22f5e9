CREATE TABLE "login_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "audit_events_subject_action_idx" ON "audit_events" USING btree ("subject_user_id","action","at");