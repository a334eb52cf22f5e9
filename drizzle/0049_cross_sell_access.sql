ALTER TABLE "household_gaps" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "household_gaps" ADD COLUMN "stage" "pull_stage" DEFAULT 'WORKING' NOT NULL;--> statement-breakpoint
-- The copies of the rows already there, from their pulls (before the index, so it is built once).
UPDATE "household_gaps" h
   SET "assignee_id" = p."assignee_id", "stage" = p."stage", "account_identifier" = p."account_identifier"
  FROM "pulls" p
 WHERE p."pull_id" = h."pull_id";--> statement-breakpoint
-- My pulls and the pull list filtered to one agent (db/schema/pulls.ts).
CREATE INDEX "pulls_mine_created_idx" ON "pulls" USING btree ("assignee_id","service_created_at" DESC NULLS LAST,"pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_mine_stage_idx" ON "pulls" USING btree ("assignee_id","stage","next_expiry_date","is_archived","pull_id") WHERE "pulls"."listed";--> statement-breakpoint
CREATE INDEX "pulls_mine_new_idx" ON "pulls" USING btree ("assignee_id","assigned_at") WHERE "pulls"."listed" and "pulls"."assignee_seen_at" is null;--> statement-breakpoint
-- The access rule's check whether an account is held (lib/pulls/visibility.ts).
CREATE INDEX "pulls_held_account_idx" ON "pulls" USING btree ("account_identifier","pull_id") WHERE "pulls"."parent_pull_id" is null and "pulls"."assignee_id" is not null;--> statement-breakpoint
CREATE INDEX "household_gaps_assignee_idx" ON "household_gaps" USING btree ("assignee_id","stage","policy_count","premium_in_play_cents" DESC NULLS LAST,"annual_premium_cents" DESC NULLS LAST,"pull_id","gap_mask");--> statement-breakpoint
-- household_gaps copies its pull's assignee, stage and account so the cross-sell list applies the
-- access rule and its filters over one table, as policy_xdates does (0019): every assignment,
-- stage change and carry-over updates pulls, and this trigger carries the change to the copy in
-- the same transaction, whichever command made it.
CREATE OR REPLACE FUNCTION household_gaps_follow_pull() RETURNS trigger AS $$
BEGIN
  UPDATE household_gaps
     SET assignee_id = NEW.assignee_id, stage = NEW.stage, account_identifier = NEW.account_identifier, updated_at = now()
   WHERE pull_id = NEW.pull_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER household_gaps_follow_pull
  AFTER UPDATE OF assignee_id, stage, account_identifier ON pulls
  FOR EACH ROW
  WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id OR OLD.stage IS DISTINCT FROM NEW.stage OR OLD.account_identifier IS DISTINCT FROM NEW.account_identifier)
  EXECUTE FUNCTION household_gaps_follow_pull();--> statement-breakpoint
ANALYZE "household_gaps";--> statement-breakpoint
ANALYZE "pulls";
