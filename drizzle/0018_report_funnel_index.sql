-- The funnel of the pulls linked in a range (linked, successful, assigned, decided, won) reads
-- the index of new linked accounts, index-only, now that it holds the stage.
DROP INDEX "pulls_report_created_idx";--> statement-breakpoint
CREATE INDEX "pulls_report_created_idx" ON "pulls" USING btree ("service_created_at","status","assignee_id","stage","public_alias","policy_types") WHERE "pulls"."parent_pull_id" is null;