CREATE TABLE "cross_sell_count_deltas" (
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"stage" "pull_stage" NOT NULL,
	"policy_count" integer NOT NULL,
	"gap_mask" integer NOT NULL,
	"households" integer NOT NULL,
	"premium" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cross_sell_counts" (
	"office_id" uuid,
	"assigned" boolean NOT NULL,
	"stage" "pull_stage" NOT NULL,
	"policy_count" integer NOT NULL,
	"gap_mask" integer NOT NULL,
	"households" integer NOT NULL,
	"premium" bigint NOT NULL,
	CONSTRAINT "cross_sell_counts_key" UNIQUE NULLS NOT DISTINCT("office_id","assigned","stage","policy_count","gap_mask")
);
--> statement-breakpoint
-- What each statement on household_gaps changed in the cross-sell counts, appended to
-- cross_sell_count_deltas in the statement's own transaction: the rows it added count +1, the
-- rows it removed -1 (an UPDATE both), grouped by the counts' key. Only listed households
-- (policy_count >= 1, lib/cross-sell/queries.ts LISTED). A plain INSERT into a table with no
-- unique key: concurrent ingest workers never wait on each other here, as they would updating a
-- shared count row. The assignee, office and stage copies change through the trigger on pulls
-- (0049), which updates household_gaps: an assignment or a stage change arrives that way.
CREATE OR REPLACE FUNCTION cross_sell_count_deltas_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO cross_sell_count_deltas (office_id, assigned, stage, policy_count, gap_mask, households, premium)
    SELECT office_id, assignee_id IS NOT NULL, stage, policy_count, gap_mask,
           count(*), coalesce(sum(premium_in_play_cents), 0)
      FROM new_rows
     WHERE policy_count >= 1
     GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO cross_sell_count_deltas (office_id, assigned, stage, policy_count, gap_mask, households, premium)
    SELECT office_id, assignee_id IS NOT NULL, stage, policy_count, gap_mask,
           -count(*), -coalesce(sum(premium_in_play_cents), 0)
      FROM old_rows
     WHERE policy_count >= 1
     GROUP BY 1, 2, 3, 4, 5;
  ELSE
    INSERT INTO cross_sell_count_deltas (office_id, assigned, stage, policy_count, gap_mask, households, premium)
    SELECT office_id, assigned, stage, policy_count, gap_mask, sum(households), sum(premium)
      FROM (SELECT office_id, assignee_id IS NOT NULL AS assigned, stage, policy_count, gap_mask,
                   1 AS households, coalesce(premium_in_play_cents, 0) AS premium
              FROM new_rows
             WHERE policy_count >= 1
            UNION ALL
            SELECT office_id, assignee_id IS NOT NULL, stage, policy_count, gap_mask,
                   -1, -coalesce(premium_in_play_cents, 0)
              FROM old_rows
             WHERE policy_count >= 1) d
     GROUP BY 1, 2, 3, 4, 5
    -- A change to a column the counts do not read (the name, the lines) adds nothing.
    HAVING sum(households) <> 0 OR sum(premium) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The deltas moved into the counts, in one transaction (a reader's statement sees them on one
-- side or the other, never both nor neither). One fold at a time; when another session is
-- folding this one skips (answers -1) rather than wait: readers add the deltas not yet folded to
-- the counts, so they are exact either way. Answers how many count rows changed.
CREATE OR REPLACE FUNCTION cross_sell_counts_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  changed integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('cross_sell_counts')) THEN
    RETURN -1;
  END IF;
  WITH moved AS (DELETE FROM cross_sell_count_deltas RETURNING *),
       summed AS (
         SELECT office_id, assigned, stage, policy_count, gap_mask,
                sum(households) AS households, sum(premium) AS premium
           FROM moved
          GROUP BY office_id, assigned, stage, policy_count, gap_mask)
  INSERT INTO cross_sell_counts AS c (office_id, assigned, stage, policy_count, gap_mask, households, premium)
  SELECT office_id, assigned, stage, policy_count, gap_mask, households, premium
    FROM summed
   WHERE households <> 0 OR premium <> 0
  ON CONFLICT ON CONSTRAINT cross_sell_counts_key DO UPDATE
     SET households = c.households + excluded.households, premium = c.premium + excluded.premium;
  GET DIAGNOSTICS changed = ROW_COUNT;
  -- A key whose last household went.
  IF changed > 0 THEN
    DELETE FROM cross_sell_counts WHERE households = 0;
  END IF;
  RETURN changed;
END;
$$;
--> statement-breakpoint
-- Everything derived again from household_gaps: this migration's backfill, and after a bulk load
-- with the triggers set aside (bench/seed.ts). The SHARE lock lets no write to household_gaps
-- commit between the deltas' clearing and the read, so none is lost or counted twice.
CREATE OR REPLACE FUNCTION cross_sell_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE household_gaps IN SHARE MODE;
  PERFORM pg_advisory_xact_lock(hashtext('cross_sell_counts'));
  -- DELETE, not TRUNCATE: the app's own role may not truncate (db/connect.ts grantAppRole).
  DELETE FROM cross_sell_count_deltas;
  DELETE FROM cross_sell_counts;
  INSERT INTO cross_sell_counts (office_id, assigned, stage, policy_count, gap_mask, households, premium)
  SELECT office_id, assignee_id IS NOT NULL, stage, policy_count, gap_mask,
         count(*), coalesce(sum(premium_in_play_cents), 0)
    FROM household_gaps
   WHERE policy_count >= 1
   GROUP BY 1, 2, 3, 4, 5;
END;
$$;
--> statement-breakpoint
-- TRUNCATE fires no row or statement trigger the deltas could follow: an empty table counts nothing.
-- The lock waits for a fold running elsewhere, which could otherwise write counts back after these deletes.
CREATE OR REPLACE FUNCTION cross_sell_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('cross_sell_counts'));
  DELETE FROM cross_sell_count_deltas;
  DELETE FROM cross_sell_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER cross_sell_count_deltas_insert AFTER INSERT ON household_gaps REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cross_sell_count_deltas_append();
--> statement-breakpoint
CREATE TRIGGER cross_sell_count_deltas_update AFTER UPDATE ON household_gaps REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cross_sell_count_deltas_append();
--> statement-breakpoint
CREATE TRIGGER cross_sell_count_deltas_delete AFTER DELETE ON household_gaps REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cross_sell_count_deltas_append();
--> statement-breakpoint
CREATE TRIGGER cross_sell_counts_truncate AFTER TRUNCATE ON household_gaps
  FOR EACH STATEMENT EXECUTE FUNCTION cross_sell_counts_after_truncate();
--> statement-breakpoint
-- The backfill: the book as it stands.
SELECT cross_sell_counts_rebuild();
--> statement-breakpoint
ANALYZE cross_sell_counts;
