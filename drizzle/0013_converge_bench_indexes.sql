-- 0010_bench_indexes was rewritten twice after it had landed (0f7dfca, 28e3c73, 4ca75ce), so a
-- database that applied an earlier text lacks the indexes added later. Compared version by
-- version: each rewrite only appended indexes, and every name present in an earlier text has
-- the same definition in today's, so nothing is dropped or rebuilt; the indexes that only the
-- later texts create are created here when missing. db/migration-upgrade.test.ts migrates each
-- earlier text and checks that the result matches a fresh database, index by index.
-- (db/migration-history.ts records those databases' 0010 as today's, so it is not re-run.)
-- Added by 28e3c73:
CREATE INDEX IF NOT EXISTS "pulls_report_decided_idx" ON "pulls" USING btree ("stage_changed_at","stage","won_credited_to","assignee_id","public_alias","policy_types") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pulls_report_created_idx" ON "pulls" USING btree ("service_created_at","status","assignee_id","public_alias","policy_types") WHERE "pulls"."parent_pull_id" is null;--> statement-breakpoint
-- Added by 4ca75ce:
CREATE INDEX IF NOT EXISTS "pulls_list_count_idx" ON "pulls" USING btree ("is_archived","pull_id") WHERE "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pulls_account_pull_idx" ON "pulls" USING btree ("account_identifier","pull_id");
