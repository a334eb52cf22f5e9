CREATE TABLE "xdate_option_deltas" (
	"x_date" date NOT NULL,
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "xdate_option_sums" (
	"x_date" date NOT NULL,
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "xdate_option_sums_key" UNIQUE NULLS NOT DISTINCT("x_date","office_id","assigned","kind","value")
);
--> statement-breakpoint
CREATE TABLE "xdate_sum_deltas" (
	"x_date" date,
	"reason" text,
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"stage" "pull_stage" NOT NULL,
	"count" integer NOT NULL,
	"premium_cents" bigint NOT NULL,
	"priced" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "xdate_sums" (
	"x_date" date,
	"reason" text,
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"stage" "pull_stage" NOT NULL,
	"count" integer NOT NULL,
	"premium_cents" bigint NOT NULL,
	"priced" integer NOT NULL,
	CONSTRAINT "xdate_sums_key" UNIQUE NULLS NOT DISTINCT("x_date","reason","office_id","assigned","stage")
);
--> statement-breakpoint
CREATE INDEX "xdate_option_sums_empty_idx" ON "xdate_option_sums" USING btree ("x_date") WHERE "xdate_option_sums"."count" = 0;--> statement-breakpoint
CREATE INDEX "xdate_sums_empty_idx" ON "xdate_sums" USING btree ("x_date") WHERE "xdate_sums"."count" = 0;--> statement-breakpoint
-- What a statement on policy_xdates changed, appended to the deltas (db/schema/xdate-sums.ts):
-- the rows it added counted +, the rows it removed −, an update both (its old rows −, its new +),
-- grouped by the sums' keys. Only appends: writers storing pulls side by side never wait on one
-- another here; the fold below moves the deltas into the sums, one fold at a time.
CREATE OR REPLACE FUNCTION xdate_deltas_from_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO xdate_sum_deltas (x_date, reason, office_id, assigned, stage, count, premium_cents, priced)
    SELECT x_date, CASE WHEN x_date IS NULL THEN coalesce(reason, 'NO_EXPIRY') END, office_id,
           assignee_id IS NOT NULL, stage, count(*), coalesce(sum(annual_premium_cents), 0), count(annual_premium_cents)
      FROM new_rows
     GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO xdate_option_deltas (x_date, office_id, assigned, kind, value, count)
    SELECT r.x_date, r.office_id, r.assignee_id IS NOT NULL, o.kind, o.value, count(*)
      FROM new_rows r
     CROSS JOIN LATERAL (VALUES ('line', r.policy_type), ('carrier', r.carrier_label), ('link', r.public_alias)) o(kind, value)
     WHERE r.x_date IS NOT NULL AND o.value IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO xdate_sum_deltas (x_date, reason, office_id, assigned, stage, count, premium_cents, priced)
    SELECT x_date, CASE WHEN x_date IS NULL THEN coalesce(reason, 'NO_EXPIRY') END, office_id,
           assignee_id IS NOT NULL, stage, -count(*), -coalesce(sum(annual_premium_cents), 0), -count(annual_premium_cents)
      FROM old_rows
     GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO xdate_option_deltas (x_date, office_id, assigned, kind, value, count)
    SELECT r.x_date, r.office_id, r.assignee_id IS NOT NULL, o.kind, o.value, -count(*)
      FROM old_rows r
     CROSS JOIN LATERAL (VALUES ('line', r.policy_type), ('carrier', r.carrier_label), ('link', r.public_alias)) o(kind, value)
     WHERE r.x_date IS NOT NULL AND o.value IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5;
  ELSE
    -- An update that moved nothing the sums keep (its updated_at, a note) nets to nothing: no row.
    WITH changed AS (SELECT 1 AS sign, n.* FROM new_rows n UNION ALL SELECT -1 AS sign, o.* FROM old_rows o)
    INSERT INTO xdate_sum_deltas (x_date, reason, office_id, assigned, stage, count, premium_cents, priced)
    SELECT x_date, CASE WHEN x_date IS NULL THEN coalesce(reason, 'NO_EXPIRY') END, office_id,
           assignee_id IS NOT NULL, stage, sum(sign), coalesce(sum(sign * annual_premium_cents), 0),
           coalesce(sum(sign) FILTER (WHERE annual_premium_cents IS NOT NULL), 0)
      FROM changed
     GROUP BY 1, 2, 3, 4, 5
    HAVING (sum(sign), coalesce(sum(sign * annual_premium_cents), 0),
            coalesce(sum(sign) FILTER (WHERE annual_premium_cents IS NOT NULL), 0)) <> (0, 0, 0);
    WITH changed AS (SELECT 1 AS sign, n.* FROM new_rows n UNION ALL SELECT -1 AS sign, o.* FROM old_rows o)
    INSERT INTO xdate_option_deltas (x_date, office_id, assigned, kind, value, count)
    SELECT r.x_date, r.office_id, r.assignee_id IS NOT NULL, o.kind, o.value, sum(r.sign)
      FROM changed r
     CROSS JOIN LATERAL (VALUES ('line', r.policy_type), ('carrier', r.carrier_label), ('link', r.public_alias)) o(kind, value)
     WHERE r.x_date IS NOT NULL AND o.value IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(r.sign) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The deltas moved into the sums, by whichever reader comes first (lib/xdates/kept-sums.ts) and
-- the hourly X-date upkeep. One fold at a time: a second one finds the lock taken and returns -1
-- at once, its reader then reading sums and deltas together, which is exact either way. Deltas
-- of transactions still running are not seen, and stay for the next fold. Answers how many sums
-- rows it wrote.
CREATE OR REPLACE FUNCTION xdate_sums_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  sum_rows integer;
  option_rows integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('xdate_sums')) THEN
    RETURN -1;
  END IF;
  WITH moved AS (DELETE FROM xdate_sum_deltas RETURNING *)
  INSERT INTO xdate_sums AS s (x_date, reason, office_id, assigned, stage, count, premium_cents, priced)
  SELECT x_date, reason, office_id, assigned, stage, sum(count), sum(premium_cents), sum(priced)
    FROM moved
   GROUP BY x_date, reason, office_id, assigned, stage
  HAVING (sum(count), sum(premium_cents), sum(priced)) <> (0, 0, 0)
  ON CONFLICT ON CONSTRAINT xdate_sums_key DO UPDATE
     SET count = s.count + excluded.count, premium_cents = s.premium_cents + excluded.premium_cents,
         priced = s.priced + excluded.priced;
  GET DIAGNOSTICS sum_rows = ROW_COUNT;
  WITH moved AS (DELETE FROM xdate_option_deltas RETURNING *)
  INSERT INTO xdate_option_sums AS s (x_date, office_id, assigned, kind, value, count)
  SELECT x_date, office_id, assigned, kind, value, sum(count)
    FROM moved
   GROUP BY x_date, office_id, assigned, kind, value
  HAVING sum(count) <> 0
  ON CONFLICT ON CONSTRAINT xdate_option_sums_key DO UPDATE SET count = s.count + excluded.count;
  GET DIAGNOSTICS option_rows = ROW_COUNT;
  -- A sum whose last row went: every row counts 1, so its premium and priced are 0 as well.
  DELETE FROM xdate_sums WHERE count = 0;
  DELETE FROM xdate_option_sums WHERE count = 0;
  RETURN sum_rows + option_rows;
END;
$$;
--> statement-breakpoint
-- Everything derived again from policy_xdates: the backfill below, and the benchmark's seed
-- (it loads with triggers set aside). SHARE mode lets no write to policy_xdates commit between
-- the statements (each reads its own snapshot), so no change is both in the sums and in a delta.
-- Locks in the order TRUNCATE takes them: the table, then the sums' lock.
CREATE OR REPLACE FUNCTION xdate_sums_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE policy_xdates IN SHARE MODE;
  PERFORM pg_advisory_xact_lock(hashtext('xdate_sums'));
  -- DELETE, not TRUNCATE: the app's own role may not truncate (db/connect.ts grantAppRole).
  DELETE FROM xdate_sum_deltas;
  DELETE FROM xdate_option_deltas;
  DELETE FROM xdate_sums;
  DELETE FROM xdate_option_sums;
  INSERT INTO xdate_sums (x_date, reason, office_id, assigned, stage, count, premium_cents, priced)
  SELECT x_date, CASE WHEN x_date IS NULL THEN coalesce(reason, 'NO_EXPIRY') END, office_id,
         assignee_id IS NOT NULL, stage, count(*), coalesce(sum(annual_premium_cents), 0), count(annual_premium_cents)
    FROM policy_xdates
   GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO xdate_option_sums (x_date, office_id, assigned, kind, value, count)
  SELECT r.x_date, r.office_id, r.assignee_id IS NOT NULL, o.kind, o.value, count(*)
    FROM policy_xdates r
   CROSS JOIN LATERAL (VALUES ('line', r.policy_type), ('carrier', r.carrier_label), ('link', r.public_alias)) o(kind, value)
   WHERE r.x_date IS NOT NULL AND o.value IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5;
END;
$$;
--> statement-breakpoint
-- TRUNCATE fires no row or statement trigger the deltas could follow: the table is empty, and so
-- are the sums.
CREATE OR REPLACE FUNCTION xdate_sums_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('xdate_sums'));
  DELETE FROM xdate_sum_deltas;
  DELETE FROM xdate_option_deltas;
  DELETE FROM xdate_sums;
  DELETE FROM xdate_option_sums;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER xdate_deltas_insert AFTER INSERT ON policy_xdates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION xdate_deltas_from_rows();
--> statement-breakpoint
CREATE TRIGGER xdate_deltas_update AFTER UPDATE ON policy_xdates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION xdate_deltas_from_rows();
--> statement-breakpoint
CREATE TRIGGER xdate_deltas_delete AFTER DELETE ON policy_xdates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION xdate_deltas_from_rows();
--> statement-breakpoint
CREATE TRIGGER xdate_sums_truncate AFTER TRUNCATE ON policy_xdates
  FOR EACH STATEMENT EXECUTE FUNCTION xdate_sums_after_truncate();
--> statement-breakpoint
-- The backfill: the book as it stands.
SELECT xdate_sums_rebuild();
