CREATE TABLE "report_source_facts" (
	"pull_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date,
	"link" text,
	"agent_id" uuid,
	"lines" text[] NOT NULL,
	"widget_id" text,
	"bucket" integer,
	"count" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_source_rollups" (
	"kind" text NOT NULL,
	"day" date,
	"link" text,
	"agent_id" uuid,
	"lines" text[] NOT NULL,
	"widget_id" text,
	"bucket" integer,
	"count" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_source_rollups_key" UNIQUE NULLS NOT DISTINCT("kind","day","link","agent_id","lines","widget_id","bucket")
);
--> statement-breakpoint
CREATE INDEX "report_source_facts_pull_idx" ON "report_source_facts" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "report_source_rollups_empty_idx" ON "report_source_rollups" USING btree ("kind") WHERE "report_source_rollups"."count" = 0;--> statement-breakpoint
-- A duration as the reports page shows it (formatDuration, lib/format.ts): whole minutes under
-- two hours, whole hours under two days, whole days beyond, each rounded half up as JavaScript
-- does, as seconds. Under a minute is 0 ("< 1 min"); 119.5 to 120 minutes and 47.5 to 48 hours
-- stay in their unit ("120 min", "48 h"). A median of one middle value is then shown exactly
-- as from the pulls; of two (an even count), within one unit of the shown value.
CREATE OR REPLACE FUNCTION report_duration_bucket(seconds double precision) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN seconds < 60 THEN 0
    WHEN seconds < 7200 THEN least(floor(seconds / 60 + 0.5) * 60, 7194)
    WHEN seconds < 172800 THEN least(floor(seconds / 3600 + 0.5) * 3600, 172440)
    ELSE floor(seconds / 86400 + 0.5) * 86400
  END::integer
$$;
--> statement-breakpoint
-- What every pull adds to the sources tables and the medians now: the rules of
-- lib/reports/sources.ts and getMedianDaysToWon (lib/reports/queries-from-pulls.ts). An arrival
-- is a listed pull with a link date that is its account's first top-level pull (by link date,
-- else creation, then id: lib/pulls/arrivals.ts); a time recorded before the link date counts
-- as at once. won_days is every win the reports count (a carried copy counts on the earlier
-- pull while it holds it), in tenths of a day, as the headline shows it.
CREATE VIEW report_source_facts_now AS
SELECT p.pull_id, x.kind, x.day, p.public_alias AS link, x.agent_id, p.policy_types AS lines, x.widget_id, x.bucket,
       1 AS count, x.completed, x.assigned, x.lost, x.cents
  FROM pulls p
 CROSS JOIN LATERAL (
       SELECT NOT (p.parent_pull_id IS NULL AND p.account_identifier IS NOT NULL AND EXISTS (
         SELECT 1 FROM pulls e
          WHERE e.account_identifier = p.account_identifier AND e.parent_pull_id IS NULL
            AND (coalesce(e.service_created_at, e.created_at), e.pull_id)
              < (coalesce(p.service_created_at, p.created_at), p.pull_id))) AS first,
       p.stage = 'WON' AND p.decision_carried AND EXISTS (
         SELECT 1 FROM pulls e
          WHERE e.account_identifier = p.account_identifier AND e.listed AND e.stage = p.stage
            AND e.stage_changed_at = p.stage_changed_at AND (e.created_at, e.pull_id) < (p.created_at, p.pull_id)) AS copy,
       (p.service_created_at AT TIME ZONE 'UTC')::date AS linked) a
 CROSS JOIN LATERAL (VALUES
       (a.first, 'arrived', a.linked, p.assignee_id, NULL::text, NULL::integer,
        (p.status = 'SUCCESS')::int,
        (p.status = 'SUCCESS' AND (p.assignee_id IS NOT NULL OR p.stage <> 'WORKING'))::int,
        (p.stage = 'LOST')::int, 0::bigint),
       (a.first AND p.stage = 'WON' AND NOT p.decision_carried, 'won', a.linked, p.won_credited_to, NULL,
        report_duration_bucket(greatest(0, date_part('epoch', p.stage_changed_at - p.service_created_at))),
        0, 0, 0, coalesce(p.won_premium_cents, 0)::bigint),
       (a.first AND p.first_touched_at IS NOT NULL, 'touch', a.linked, p.assignee_id, p.widget_id,
        report_duration_bucket(greatest(0, date_part('epoch', p.first_touched_at - p.service_created_at))),
        0, 0, 0, 0),
       (p.stage = 'WON' AND NOT a.copy AND p.stage_changed_at IS NOT NULL, 'won_days',
        (p.stage_changed_at AT TIME ZONE 'UTC')::date, p.won_credited_to, NULL,
        floor(date_part('epoch', p.stage_changed_at - p.service_created_at) / 8640 + 0.5)::integer,
        0, 0, 0, 0)
       ) x(keep, kind, day, agent_id, widget_id, bucket, completed, assigned, lost, cents)
 WHERE p.listed AND p.service_created_at IS NOT NULL AND x.keep;
--> statement-breakpoint
-- The refresh of 0046, taking the same changed pulls into the sources' sums as well.
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
  WITH old AS (DELETE FROM report_source_facts f WHERE f.pull_id = ANY (ids) RETURNING f.*),
       new AS (INSERT INTO report_source_facts (pull_id, kind, day, link, agent_id, lines, widget_id, bucket,
                                                count, completed, assigned, lost, cents)
               SELECT * FROM report_source_facts_now n WHERE n.pull_id = ANY (ids) RETURNING *),
       delta AS (
         SELECT kind, day, link, agent_id, lines, widget_id, bucket,
                sum(count)::int AS count, sum(completed)::int AS completed, sum(assigned)::int AS assigned,
                sum(lost)::int AS lost, sum(cents)::bigint AS cents
           FROM (SELECT kind, day, link, agent_id, lines, widget_id, bucket,
                        -count AS count, -completed AS completed, -assigned AS assigned, -lost AS lost, -cents AS cents
                   FROM old
                 UNION ALL
                 SELECT kind, day, link, agent_id, lines, widget_id, bucket, count, completed, assigned, lost, cents
                   FROM new) d
          GROUP BY kind, day, link, agent_id, lines, widget_id, bucket),
       -- The same by month ("<kind>:month", day: the month's first): a range reads its whole
       -- months there and only its ends from the days.
       both_spans AS (
         SELECT * FROM delta
         UNION ALL
         SELECT kind || ':month', date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket,
                sum(count)::int, sum(completed)::int, sum(assigned)::int, sum(lost)::int, sum(cents)::bigint
           FROM delta
          GROUP BY kind, date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket)
  INSERT INTO report_source_rollups AS r (kind, day, link, agent_id, lines, widget_id, bucket,
                                          count, completed, assigned, lost, cents)
  SELECT * FROM both_spans
   WHERE (count, completed, assigned, lost, cents) <> (0, 0, 0, 0, 0)
   ORDER BY kind, day, link, agent_id, lines, widget_id, bucket
  ON CONFLICT ON CONSTRAINT report_source_rollups_key DO UPDATE
     SET count = r.count + excluded.count, completed = r.completed + excluded.completed,
         assigned = r.assigned + excluded.assigned, lost = r.lost + excluded.lost, cents = r.cents + excluded.cents;
  DELETE FROM report_source_rollups WHERE count = 0;
  RETURN cardinality(ids);
END;
$$;
--> statement-breakpoint
-- The rebuild of 0046, with the sources' facts and sums.
CREATE OR REPLACE FUNCTION report_rollups_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('report_rollups'));
  -- DELETE, not TRUNCATE: the app's own role may not truncate (db/connect.ts grantAppRole).
  DELETE FROM report_dirty;
  DELETE FROM report_facts;
  DELETE FROM report_rollups;
  DELETE FROM report_source_facts;
  DELETE FROM report_source_rollups;
  INSERT INTO report_facts (pull_id, kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                            count, successful, assigned, worked, won, cents, priced)
  SELECT * FROM report_facts_now;
  INSERT INTO report_rollups (kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
                              count, successful, assigned, worked, won, cents, priced)
  SELECT kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to,
         sum(count), sum(successful), sum(assigned), sum(worked), sum(won), sum(cents), sum(priced)
    FROM report_facts
   GROUP BY kind, day, agent_id, carrier, carrier_name, lines, link, reason, lost_to;
  INSERT INTO report_source_facts (pull_id, kind, day, link, agent_id, lines, widget_id, bucket,
                                   count, completed, assigned, lost, cents)
  SELECT * FROM report_source_facts_now;
  INSERT INTO report_source_rollups (kind, day, link, agent_id, lines, widget_id, bucket,
                                     count, completed, assigned, lost, cents)
  SELECT kind, day, link, agent_id, lines, widget_id, bucket, sum(count), sum(completed), sum(assigned), sum(lost), sum(cents)
    FROM report_source_facts
   GROUP BY kind, day, link, agent_id, lines, widget_id, bucket
   UNION ALL
  SELECT kind || ':month', date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket,
         sum(count), sum(completed), sum(assigned), sum(lost), sum(cents)
    FROM report_source_facts
   GROUP BY kind, date_trunc('month', day)::date, link, agent_id, lines, widget_id, bucket;
END;
$$;
--> statement-breakpoint
-- The dirty marking of 0046, also on the columns only the sources read (the first touch, the widget).
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
            o.lost_to_carrier, o.lost_to_premium_cents, o.created_at, o.parent_pull_id, o.first_touched_at, o.widget_id)
           IS DISTINCT FROM
           (n.listed, n.stage, n.status, n.is_archived, n.account_identifier, n.assignee_id, n.won_credited_to,
            n.won_premium_cents, n.stage_changed_at, n.decision_carried, n.provider_name, n.provider_friendly_name,
            n.policy_types, n.public_alias, n.service_created_at, n.total_premium_cents, n.lost_category,
            n.lost_to_carrier, n.lost_to_premium_cents, n.created_at, n.parent_pull_id, n.first_touched_at, n.widget_id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The backfill: the book as it stands.
SELECT report_rollups_rebuild();
