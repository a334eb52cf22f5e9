-- The list's drill-down from a report's line of business (lines=AUTO + HOMEOWNERS, often with a
-- stage) counted its pulls by wording every pull of the book; this index answers the count
-- index-only by the array, and still serves the loose scan of the filter's choices that the
-- index it replaces (policy_types alone) served.
DROP INDEX "pulls_top_policy_types_idx";--> statement-breakpoint
CREATE INDEX "pulls_top_lines_idx" ON "pulls" USING btree ("policy_types","stage","is_archived") WHERE "pulls"."parent_pull_id" is null;