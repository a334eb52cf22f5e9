ALTER TABLE "pulls" ADD COLUMN "won_credited_to" uuid;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "widget_id" text;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "public_alias" text;--> statement-breakpoint
ALTER TABLE "pulls" ADD CONSTRAINT "pulls_won_credited_to_users_id_fk" FOREIGN KEY ("won_credited_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pulls_won_credited_to_idx" ON "pulls" USING btree ("won_credited_to");--> statement-breakpoint
CREATE INDEX "pulls_stage_changed_at_idx" ON "pulls" USING btree ("stage","stage_changed_at");--> statement-breakpoint
-- Wins recorded before this column existed are credited to their assignee at the time of migrating.
UPDATE "pulls" SET "won_credited_to" = "assignee_id" WHERE "stage" = 'WON' AND "won_credited_to" IS NULL;
