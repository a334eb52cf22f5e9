-- The reports' won and decided pulls read index-only, with the columns the carried-over
-- decision check compares; the check itself finds the earlier decision index-only.
DROP INDEX "pulls_report_won_idx";--> statement-breakpoint
DROP INDEX "pulls_report_decided_idx";--> statement-breakpoint
CREATE INDEX "pulls_report_won_carry_idx" ON "pulls" USING btree ("stage_changed_at","won_credited_to","won_premium_cents","provider_name","provider_friendly_name","public_alias","service_created_at","policy_types","account_identifier","created_at","pull_id") WHERE "pulls"."stage" = 'WON' and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX "pulls_report_decided_carry_idx" ON "pulls" USING btree ("stage_changed_at","stage","won_credited_to","assignee_id","public_alias","policy_types","account_identifier","created_at","pull_id") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX "pulls_account_decision_idx" ON "pulls" USING btree ("account_identifier","stage","stage_changed_at","created_at","pull_id") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."parent_pull_id" is null;--> statement-breakpoint
-- 0014 rewrote pulls (the stage column changed type), which drops its column statistics: the
-- planner gets them back now rather than at autovacuum's next turn.
ANALYZE "pulls";