CREATE TABLE "lost_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pull_id" uuid NOT NULL,
	"lost_at" timestamp with time zone NOT NULL,
	"owner_id" uuid,
	"lost_category" text,
	"lost_to_carrier" text,
	"lost_to_premium_cents" bigint,
	"lost_reason" text,
	"policy_types" text[] DEFAULT '{}' NOT NULL,
	"public_alias" text,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
-- The losses a database already holds, so the reports, which now read losses from this table,
-- keep counting them where they did. First every top-level pull LOST by its own decision (a
-- LOST carried to a refresh of the account is the earlier pull's, and the reports still find
-- it on the pull when the earlier decision no longer stands), whose loss it is the assignee's.
INSERT INTO "lost_decisions" ("pull_id", "lost_at", "owner_id", "lost_category", "lost_to_carrier", "lost_to_premium_cents",
                              "lost_reason", "policy_types", "public_alias")
SELECT p."pull_id", coalesce(p."stage_changed_at", p."updated_at"), p."assignee_id", p."lost_category", p."lost_to_carrier",
       p."lost_to_premium_cents", p."lost_reason", p."policy_types", p."public_alias"
  FROM "pulls" p
 WHERE p."stage" = 'LOST' AND NOT p."decision_carried" AND p."parent_pull_id" IS NULL;
--> statement-breakpoint
-- Then the losses a deal return took off its pull (lib/workflow/deal-returns.ts cleared them),
-- read back from the audit trail: the pull's last stage change before each return, when it was
-- to LOST by hand, stood until the return. Its moment and premium lost to come from that entry,
-- why and whose from the return, which copied them as they stood.
INSERT INTO "lost_decisions" ("pull_id", "lost_at", "owner_id", "lost_category", "lost_to_carrier", "lost_to_premium_cents",
                              "lost_reason", "policy_types", "public_alias")
SELECT r."pull_id", a."at", r."previous_assignee_id", r."lost_category", r."lost_to_carrier",
       CASE WHEN jsonb_typeof(a."details"->'lostToPremiumCents') = 'number'
            THEN round((a."details"->>'lostToPremiumCents')::numeric)::bigint END,
       r."lost_reason", p."policy_types", p."public_alias"
  FROM "deal_returns" r
  JOIN "pulls" p ON p."pull_id" = r."pull_id" AND p."parent_pull_id" IS NULL
  CROSS JOIN LATERAL (
    SELECT e."at", e."details" FROM "audit_events" e
     WHERE e."pull_id" = r."pull_id" AND e."action" = 'STAGE_CHANGED' AND e."at" <= r."returned_at"
     ORDER BY e."at" DESC, e."id" DESC
     LIMIT 1) a
 WHERE a."details"->>'to' = 'LOST';
--> statement-breakpoint
-- Built after the backfill: one sort, not an index updated row by row.
CREATE INDEX "lost_decisions_report_idx" ON "lost_decisions" USING btree ("lost_at","owner_id","lost_category","lost_to_carrier","lost_to_premium_cents","public_alias","policy_types","pull_id") WHERE "lost_decisions"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "lost_decisions_pull_idx" ON "lost_decisions" USING btree ("pull_id","lost_at");
