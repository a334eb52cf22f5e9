CREATE TABLE "refresh_forecasts" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"forecast" jsonb NOT NULL,
	"lead_time_days" integer NOT NULL,
	"budget" integer,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_identifier" text,
	"pull_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_facts" (
	"pull_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date,
	"agent_id" uuid,
	"carrier" text,
	"carrier_name" text,
	"lines" text[] NOT NULL,
	"link" text,
	"reason" text,
	"lost_to" text,
	"count" integer DEFAULT 0 NOT NULL,
	"successful" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"worked" integer DEFAULT 0 NOT NULL,
	"won" integer DEFAULT 0 NOT NULL,
	"cents" bigint DEFAULT 0 NOT NULL,
	"priced" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_rollups" (
	"kind" text NOT NULL,
	"day" date,
	"agent_id" uuid,
	"carrier" text,
	"carrier_name" text,
	"lines" text[] NOT NULL,
	"link" text,
	"reason" text,
	"lost_to" text,
	"count" integer DEFAULT 0 NOT NULL,
	"successful" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"worked" integer DEFAULT 0 NOT NULL,
	"won" integer DEFAULT 0 NOT NULL,
	"cents" bigint DEFAULT 0 NOT NULL,
	"priced" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_rollups_key" UNIQUE NULLS NOT DISTINCT("kind","day","agent_id","carrier","carrier_name","lines","link","reason","lost_to")
);
--> statement-breakpoint
CREATE INDEX "report_facts_pull_idx" ON "report_facts" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "report_rollups_empty_idx" ON "report_rollups" USING btree ("kind") WHERE "report_rollups"."count" = 0;--> statement-breakpoint
-- What every pull (and every standing loss) adds to the reports now: the rules of
-- lib/reports/queries-from-pulls.ts (the reports as computed from the pulls), one row per
-- contribution. A WON or LOST carried to a refresh of its account counts once, on the earlier
-- pull, while that pull's decision stands; a loss counts from the history of losses.
CREATE VIEW report_facts_now AS
SELECT p.pull_id, 'won'::text AS kind, (p.stage_changed_at AT TIME ZONE 'UTC')::date AS day,
       p.won_credited_to AS agent_id, coalesce(p.provider_name, '') AS carrier,
       coalesce(p.provider_friendly_name, p.provider_name, 'Unknown') AS carrier_name,
       p.policy_types AS lines, p.public_alias AS link, NULL::text AS reason, NULL::text AS lost_to,
       1 AS count, 0 AS successful, 0 AS assigned, 0 AS worked, 0 AS won,
       coalesce(p.won_premium_cents, 0)::bigint AS cents, 0 AS priced
  FROM pulls p
 WHERE p.listed AND p.stage = 'WON'
   AND NOT (p.decision_carried AND EXISTS (
         SELECT 1 FROM pulls e
          WHERE e.account_identifier = p.account_identifier AND e.listed AND e.stage = p.stage
            AND e.stage_changed_at = p.stage_changed_at AND (e.created_at, e.pull_id) < (p.created_at, p.pull_id)))
UNION ALL
SELECT ld.pull_id, 'lost', (ld.lost_at AT TIME ZONE 'UTC')::date, ld.owner_id, NULL, NULL,
       ld.policy_types, ld.public_alias, ld.lost_category, ld.lost_to_carrier,
       1, 0, 0, 0, 0, coalesce(ld.lost_to_premium_cents, 0)::bigint, (ld.lost_to_premium_cents IS NOT NULL)::int
  FROM lost_decisions ld
 WHERE ld.undone_at IS NULL
UNION ALL
SELECT p.pull_id, 'lost', (p.stage_changed_at AT TIME ZONE 'UTC')::date, p.assignee_id, NULL, NULL,
       p.policy_types, p.public_alias, p.lost_category, p.lost_to_carrier,
       1, 0, 0, 0, 0, coalesce(p.lost_to_premium_cents, 0)::bigint, (p.lost_to_premium_cents IS NOT NULL)::int
  FROM pulls p
 WHERE p.listed AND p.stage = 'LOST' AND p.decision_carried
   AND NOT EXISTS (
         SELECT 1 FROM lost_decisions el JOIN pulls e ON e.pull_id = el.pull_id
          WHERE el.lost_at = p.stage_changed_at AND el.undone_at IS NULL
            AND e.account_identifier = p.account_identifier AND e.parent_pull_id IS NULL
            AND (e.created_at, e.pull_id) < (p.created_at, p.pull_id))
UNION ALL
SELECT p.pull_id, 'open', NULL, p.assignee_id, NULL, NULL, p.policy_types, p.public_alias, NULL, NULL,
       1, 0, 0, 0, 0, coalesce(p.total_premium_cents, 0)::bigint, 0
  FROM pulls p
 WHERE p.listed AND p.stage = 'WORKING' AND p.status = 'SUCCESS' AND NOT p.is_archived
UNION ALL
-- The funnel of a linked pull: a decision carried from the account's earlier pull (a copy) is
-- not this pull's work, so it counts as linked and successful only (and assigned if it is).
SELECT p.pull_id, 'created', (p.service_created_at AT TIME ZONE 'UTC')::date, p.assignee_id, NULL, NULL,
       p.policy_types, p.public_alias, NULL, NULL,
       1, (p.status = 'SUCCESS')::int,
       CASE WHEN c.copy THEN (p.assignee_id IS NOT NULL)::int
            ELSE (p.status = 'SUCCESS' AND (p.assignee_id IS NOT NULL OR p.stage <> 'WORKING'))::int END,
       CASE WHEN c.copy THEN 0 ELSE (p.status = 'SUCCESS' AND p.stage <> 'WORKING')::int END,
       CASE WHEN c.copy THEN 0 ELSE (p.status = 'SUCCESS' AND p.stage = 'WON')::int END,
       0, 0
  FROM pulls p
 CROSS JOIN LATERAL (
       SELECT p.status = 'SUCCESS' AND p.stage IN ('WON', 'LOST') AND p.decision_carried AND EXISTS (
         SELECT 1 FROM pulls e
          WHERE e.account_identifier = p.account_identifier AND e.listed AND e.stage = p.stage
            AND e.stage_changed_at = p.stage_changed_at AND (e.created_at, e.pull_id) < (p.created_at, p.pull_id)) AS copy) c
 WHERE p.listed AND p.service_created_at IS NOT NULL;
--> statement-breakpoint
-- The changed accounts' facts derived again, and the difference moved into the sums. One
-- refresh at a time: it waits for one running elsewhere, then takes what is left.
CREATE OR REPLACE FUNCTION report_rollups_refresh() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('report_rollups'));
  WITH taken AS (DELETE FROM report_dirty RETURNING account_identifier, pull_id)
  SELECT coalesce(array_agg(DISTINCT u.pull_id), '{}') INTO ids FROM (
    SELECT t.pull_id FROM taken t
    UNION
    SELECT p.pull_id FROM pulls p
     WHERE p.account_identifier IN (SELECT t.account_identifier FROM taken t WHERE t.account_identifier IS NOT NULL)) u;
  IF cardinality(ids) = 0 THEN
    RETURN 0;
  END IF;
  WITH old AS (DELETE FROM report_facts f WHERE f.pull_id = ANY (ids) RETURNING f.*),
       new AS (INSERT INTO report_facts (pull_id, kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                                         count, successful, assigned, worked, won, cents, priced)
               SELECT * FROM report_facts_now n WHERE n.pull_id = ANY (ids) RETURNING *),
       delta AS (
         SELECT kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                sum(count)::int AS count, sum(successful)::int AS successful, sum(assigned)::int AS assigned,
                sum(worked)::int AS worked, sum(won)::int AS won, sum(cents)::bigint AS cents, sum(priced)::int AS priced
           FROM (SELECT kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                        -count AS count, -successful AS successful, -assigned AS assigned, -worked AS worked,
                        -won AS won, -cents AS cents, -priced AS priced
                   FROM old
                 UNION ALL
                 SELECT kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                        count, successful, assigned, worked, won, cents, priced
                   FROM new) d
          GROUP BY kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to)
  INSERT INTO report_rollups AS r (kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                                   count, successful, assigned, worked, won, cents, priced)
  SELECT * FROM delta
   WHERE (count, successful, assigned, worked, won, cents, priced) <> (0, 0, 0, 0, 0, 0, 0)
   ORDER BY kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to
  ON CONFLICT ON CONSTRAINT report_rollups_key DO UPDATE
     SET count = r.count + excluded.count, successful = r.successful + excluded.successful,
         assigned = r.assigned + excluded.assigned, worked = r.worked + excluded.worked,
         won = r.won + excluded.won, cents = r.cents + excluded.cents, priced = r.priced + excluded.priced;
  -- Every fact counts 1: a sum of no facts is empty.
  DELETE FROM report_rollups WHERE count = 0;
  RETURN cardinality(ids);
END;
$$;
--> statement-breakpoint
-- Everything derived again from the base tables: the backfill, and after a TRUNCATE (which
-- fires no row or statement trigger the refresh could follow).
CREATE OR REPLACE FUNCTION report_rollups_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('report_rollups'));
  -- DELETE, not TRUNCATE: the app's own role may not truncate (db/connect.ts grantAppRole).
  DELETE FROM report_dirty;
  DELETE FROM report_facts;
  DELETE FROM report_rollups;
  INSERT INTO report_facts (pull_id, kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                            count, successful, assigned, worked, won, cents, priced)
  SELECT * FROM report_facts_now;
  INSERT INTO report_rollups (kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                              count, successful, assigned, worked, won, cents, priced)
  SELECT kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
         sum(count), sum(successful), sum(assigned), sum(worked), sum(won), sum(cents), sum(priced)
    FROM report_facts
   GROUP BY kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to;
END;
$$;
--> statement-breakpoint
-- pulls: the rows a statement added, removed, or changed in a column report_facts_now reads
-- (both accounts when a pull moved from one to another).
CREATE OR REPLACE FUNCTION report_dirty_from_pulls() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_dirty (account_identifier, pull_id) SELECT account_identifier, pull_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_dirty (account_identifier, pull_id) SELECT account_identifier, pull_id FROM old_rows;
  ELSE
    INSERT INTO report_dirty (account_identifier, pull_id)
    SELECT DISTINCT x.account_identifier, x.pull_id
      FROM old_rows o JOIN new_rows n ON n.pull_id = o.pull_id
     CROSS JOIN LATERAL (VALUES (o.account_identifier, o.pull_id), (n.account_identifier, n.pull_id)) x(account_identifier, pull_id)
     WHERE (o.listed, o.stage, o.status, o.is_archived, o.account_identifier, o.assignee_id, o.won_credited_to,
            o.won_premium_cents, o.stage_changed_at, o.decision_carried, o.provider_name, o.provider_friendly_name,
            o.policy_types, o.public_alias, o.service_created_at, o.total_premium_cents, o.lost_category,
            o.lost_to_carrier, o.lost_to_premium_cents, o.created_at, o.parent_pull_id)
           IS DISTINCT FROM
           (n.listed, n.stage, n.status, n.is_archived, n.account_identifier, n.assignee_id, n.won_credited_to,
            n.won_premium_cents, n.stage_changed_at, n.decision_carried, n.provider_name, n.provider_friendly_name,
            n.policy_types, n.public_alias, n.service_created_at, n.total_premium_cents, n.lost_category,
            n.lost_to_carrier, n.lost_to_premium_cents, n.created_at, n.parent_pull_id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- lost_decisions: the pull's own losses, and its account (a refresh's carried loss counts
-- only while the earlier pull's loss stands).
CREATE OR REPLACE FUNCTION report_dirty_from_losses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO report_dirty (account_identifier, pull_id)
    SELECT DISTINCT p.account_identifier, r.pull_id FROM new_rows r LEFT JOIN pulls p ON p.pull_id = r.pull_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO report_dirty (account_identifier, pull_id)
    SELECT DISTINCT p.account_identifier, r.pull_id FROM old_rows r LEFT JOIN pulls p ON p.pull_id = r.pull_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_rollups_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_rollups_rebuild();
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER report_dirty_pulls_insert AFTER INSERT ON pulls REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_pulls();
--> statement-breakpoint
CREATE TRIGGER report_dirty_pulls_update AFTER UPDATE ON pulls REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_pulls();
--> statement-breakpoint
CREATE TRIGGER report_dirty_pulls_delete AFTER DELETE ON pulls REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_pulls();
--> statement-breakpoint
CREATE TRIGGER report_dirty_losses_insert AFTER INSERT ON lost_decisions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_losses();
--> statement-breakpoint
CREATE TRIGGER report_dirty_losses_update AFTER UPDATE ON lost_decisions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_losses();
--> statement-breakpoint
CREATE TRIGGER report_dirty_losses_delete AFTER DELETE ON lost_decisions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_dirty_from_losses();
--> statement-breakpoint
CREATE TRIGGER report_rollups_pulls_truncate AFTER TRUNCATE ON pulls
  FOR EACH STATEMENT EXECUTE FUNCTION report_rollups_after_truncate();
--> statement-breakpoint
CREATE TRIGGER report_rollups_losses_truncate AFTER TRUNCATE ON lost_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION report_rollups_after_truncate();
--> statement-breakpoint
-- The backfill: the book as it stands.
SELECT report_rollups_rebuild();
