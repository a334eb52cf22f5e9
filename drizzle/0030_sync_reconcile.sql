CREATE TABLE "pull_status_checks" (
	"pull_id" uuid PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "monitorings" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "phase" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "rechecked" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "settled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "gave_up" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "monitorings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "monitorings_found" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "monitorings_changed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "problems" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "pulls_not_final_idx" ON "pulls" USING btree ("fetched_at") WHERE "pulls"."status" not in ('SUCCESS', 'INCOMPLETE', 'PROVIDER_ERROR', 'VALIDATION_ERROR');--> statement-breakpoint
-- Until now only Coverdesk's own commands answered a monitoring's status into this table
-- (webhooks name a monitoring without one), so the monitorings with a status were made here.
UPDATE "monitorings" SET "origin" = 'COVERDESK' WHERE "status" IS NOT NULL;
