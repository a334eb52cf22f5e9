-- pulls.stage becomes the pull_stage enum (db/schema/pull-stage.ts). The two report indexes
-- whose predicates compare stage with text are dropped first and rebuilt after, with the same
-- definitions: PostgreSQL rebuilds an index from its stored text, where the literals are
-- already text and "pull_stage = text" has no operator. The text default cannot be cast
-- either, so it is dropped and set again. There is no check constraint on stage.
CREATE TYPE "public"."pull_stage" AS ENUM('WORKING', 'WON', 'LOST');--> statement-breakpoint
DROP INDEX "pulls_report_won_idx";--> statement-breakpoint
DROP INDEX "pulls_report_decided_idx";--> statement-breakpoint
ALTER TABLE "pulls" ALTER COLUMN "stage" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "pulls" ALTER COLUMN "stage" SET DATA TYPE "public"."pull_stage" USING "stage"::"public"."pull_stage";--> statement-breakpoint
ALTER TABLE "pulls" ALTER COLUMN "stage" SET DEFAULT 'WORKING'::"public"."pull_stage";--> statement-breakpoint
CREATE INDEX "pulls_report_won_idx" ON "pulls" USING btree ("stage_changed_at","won_credited_to","won_premium_cents","provider_name","provider_friendly_name","public_alias","service_created_at","policy_types") WHERE "pulls"."stage" = 'WON' and "pulls"."parent_pull_id" is null;--> statement-breakpoint
CREATE INDEX "pulls_report_decided_idx" ON "pulls" USING btree ("stage_changed_at","stage","won_credited_to","assignee_id","public_alias","policy_types") WHERE "pulls"."stage" in ('WON', 'LOST') and "pulls"."parent_pull_id" is null;
