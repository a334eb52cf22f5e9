DROP INDEX "pulls_untouched_idx";--> statement-breakpoint
DROP INDEX "pulls_list_created_idx";--> statement-breakpoint
DROP INDEX "pulls_list_name_idx";--> statement-breakpoint
DROP INDEX "pulls_list_premium_idx";--> statement-breakpoint
DROP INDEX "pulls_list_expiry_idx";--> statement-breakpoint
DROP INDEX "pulls_top_status_idx";--> statement-breakpoint
DROP INDEX "pulls_top_type_idx";--> statement-breakpoint
DROP INDEX "pulls_top_carrier_idx";--> statement-breakpoint
DROP INDEX "pulls_top_lines_idx";--> statement-breakpoint
DROP INDEX "pulls_list_count_idx";--> statement-breakpoint
DROP INDEX "pulls_list_monitored_idx";--> statement-breakpoint
DROP INDEX "pulls_list_filter_idx";--> statement-breakpoint
DROP INDEX "pulls_report_won_once_idx";--> statement-breakpoint
DROP INDEX "pulls_report_decided_once_idx";--> statement-breakpoint
DROP INDEX "pulls_report_open_idx";--> statement-breakpoint
DROP INDEX "pulls_account_decision_idx";--> statement-breakpoint
DROP INDEX "pulls_report_created_idx";--> statement-breakpoint
DROP INDEX "pulls_report_touch_idx";--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "listed" boolean GENERATED ALWAYS AS (parent_pull_id is null and deleted_at is null and type is distinct from 'SERVICING') STORED;--> statement-breakpoint
CREATE INDEX "pulls_untouched_idx" ON "pulls" USING btree ("created_at") WHERE "pulls"."first_touched_at" is null and "pulls"."speed_to_lead_at" is null and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_created_idx" ON "pulls" USING btree ("service_created_at" DESC NULLS LAST,"pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_name_idx" ON "pulls" USING btree ("sort_name","pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_premium_idx" ON "pulls" USING btree ("total_premium_cents" DESC NULLS LAST,"pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_expiry_idx" ON "pulls" USING btree ("next_expiry_date","pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_top_status_idx" ON "pulls" USING btree ("status") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_top_type_idx" ON "pulls" USING btree ("type") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_top_carrier_idx" ON "pulls" USING btree ("provider_name",coalesce("provider_friendly_name", "provider_name")) WHERE "pulls"."listed" and "pulls"."provider_name" is not null;--> statement-breakpoint
CREATE INDEX "pulls_top_lines_idx" ON "pulls" USING btree ("policy_types","stage","is_archived") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_count_idx" ON "pulls" USING btree ("is_archived","pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_monitored_idx" ON "pulls" USING btree ("is_archived","service_created_at" DESC NULLS LAST,"pull_id") WHERE "pulls"."monitored" and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_list_filter_idx" ON "pulls" USING btree ("is_archived","stage","status","assignee_id","type","provider_name","service_created_at","next_expiry_date","public_alias","won_credited_to","stage_changed_at","account_identifier","pull_id","policy_types","total_premium_cents") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_report_won_once_idx" ON "pulls" USING btree ("decision_carried","stage_changed_at","won_credited_to","won_premium_cents","provider_name","provider_friendly_name","public_alias","service_created_at","policy_types") WHERE "pulls"."stage" = 'WON' and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_report_decided_once_idx" ON "pulls" USING btree ("decision_carried","stage_changed_at","stage","won_credited_to","assignee_id","public_alias","policy_types") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_report_open_idx" ON "pulls" USING btree ("assignee_id","total_premium_cents","public_alias","policy_types") WHERE "pulls"."stage" = 'WORKING' and "pulls"."status" = 'SUCCESS' and not "pulls"."is_archived" and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_account_decision_idx" ON "pulls" USING btree ("account_identifier","stage","stage_changed_at","created_at","pull_id") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_report_created_idx" ON "pulls" USING btree ("service_created_at","status","assignee_id","stage","public_alias","policy_types") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_report_touch_idx" ON "pulls" USING btree ("service_created_at","public_alias","assignee_id","first_touched_at","widget_id","pull_id") WHERE "pulls"."listed" and "pulls"."first_touched_at" is not null;--> statement-breakpoint
-- Only PULLING_DATA pulls (and pulls that name no type) are an account's reading
-- (lib/pulls/account-key.ts): X-dates and cross-sell rows that another type of pull wrote give
-- way; the hourly upkeep (lib/xdates/upkeep.ts) writes them again for each account's newest
-- reading. The pulls' own columns (deleted_at, account_identifier) are redone from their raw
-- payloads by the start-up re-projection (projection version 3).
DELETE FROM "policy_xdates" x USING "pulls" p
 WHERE p."pull_id" = x."pull_id" AND p."type" IS NOT NULL AND p."type" <> 'PULLING_DATA';--> statement-breakpoint
DELETE FROM "household_gaps" h USING "pulls" p
 WHERE p."pull_id" = h."pull_id" AND p."type" IS NOT NULL AND p."type" <> 'PULLING_DATA';--> statement-breakpoint
ANALYZE "pulls";
