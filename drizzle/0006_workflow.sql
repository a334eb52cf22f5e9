CREATE TABLE "assignment_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"mode" text DEFAULT 'OFF' NOT NULL,
	"rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fallback_assignee_id" uuid,
	"last_assignee_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"action" text NOT NULL,
	"pull_id" uuid,
	"subject_user_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "assignee_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "won_premium_cents" bigint;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "lost_reason" text;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "stage_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignment_settings" ADD CONSTRAINT "assignment_settings_fallback_assignee_id_users_id_fk" FOREIGN KEY ("fallback_assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_pull_id_idx" ON "audit_events" USING btree ("pull_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_id_idx" ON "audit_events" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
ALTER TABLE "pulls" ADD CONSTRAINT "pulls_won_premium_positive" CHECK ("pulls"."won_premium_cents" is null or "pulls"."won_premium_cents" > 0);