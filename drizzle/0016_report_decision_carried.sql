-- A WON or LOST carried over to a refresh of its account (lib/workflow/carry-over.ts) is marked
-- on the refresh when it is stored; the reports compare only marked pulls with the account's
-- earlier pulls, instead of every decided pull on every request.
DROP INDEX "pulls_report_won_carry_idx";--> statement-breakpoint
DROP INDEX "pulls_report_decided_carry_idx";--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "decision_carried" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The decisions already carried: exactly the pulls the reports' check found before (an earlier
-- top-level pull of the same account with the same decision at the same moment).
UPDATE "pulls" SET "decision_carried" = true
WHERE "parent_pull_id" is null and "stage" in ('WON', 'LOST') and "account_identifier" is not null
  and exists (
    select 1 from "pulls" "e"
    where "e"."account_identifier" = "pulls"."account_identifier" and "e"."parent_pull_id" is null
      and "e"."stage" = "pulls"."stage" and "e"."stage_changed_at" = "pulls"."stage_changed_at"
      and ("e"."created_at", "e"."pull_id") < ("pulls"."created_at", "pulls"."pull_id"));--> statement-breakpoint
CREATE INDEX "pulls_report_won_once_idx" ON "pulls" USING btree ("decision_carried","stage_changed_at","won_credited_to","won_premium_cents","provider_name","provider_friendly_name","public_alias","service_created_at","policy_types") WHERE "pulls"."stage" = 'WON' and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX "pulls_report_decided_once_idx" ON "pulls" USING btree ("decision_carried","stage_changed_at","stage","won_credited_to","assignee_id","public_alias","policy_types") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."parent_pull_id" is null;--> statement-breakpoint
ANALYZE "pulls";
