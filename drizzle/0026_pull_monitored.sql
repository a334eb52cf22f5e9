ALTER TABLE "pulls" ADD COLUMN "monitored" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Built before the backfill: built after it, over the row versions it leaves behind, the index
-- would be marked usable only once every transaction older than this one has ended.
CREATE INDEX "pulls_list_monitored_idx" ON "pulls" USING btree ("is_archived","service_created_at" DESC NULLS LAST,"pull_id") WHERE "pulls"."monitored" and "pulls"."parent_pull_id" is null;--> statement-breakpoint
-- pulls.monitored: whether the list's "monitored" filter shows the pull. Computed per query it
-- probed every monitored pull and sorted them (half a second at a million pulls); kept here by
-- the database, beside the rows that decide it, the list reads one column through one partial
-- index. The rule is written once, in pull_is_monitored(); every trigger below asks it.
--
-- THE rule: an active monitoring (status null, i.e. not answered yet, counts as active; only
-- STOPPED does not) names the pull as its initial or latest pull, or names its account.
CREATE OR REPLACE FUNCTION pull_is_monitored(p_pull_id uuid, p_account text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM monitorings m
     WHERE coalesce(m.status, 'ACTIVE') <> 'STOPPED'
       AND (m.initial_pull_id = p_pull_id OR m.latest_pull_id = p_pull_id
            OR (p_account IS NOT NULL AND m.account_identifier = p_account)))
$$;
--> statement-breakpoint
-- A pull stored (or re-projected to another account) after its account's monitoring: a
-- refresh of a monitored account is monitored from its first row.
CREATE OR REPLACE FUNCTION pulls_set_monitored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.monitored := pull_is_monitored(NEW.pull_id, NEW.account_identifier);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER pulls_set_monitored
  BEFORE INSERT OR UPDATE OF account_identifier ON pulls
  FOR EACH ROW
  EXECUTE FUNCTION pulls_set_monitored();
--> statement-breakpoint
-- A monitoring written, changed or removed: the pulls its old and new row name (their pulls
-- and every pull of their accounts) are asked the rule again, and only those whose answer
-- changed are written, so a webhook that changes nothing here writes no pull. Per statement,
-- over the transition tables: one set-based UPDATE per COPY of the benchmark's seeder (which
-- loads monitorings with the pulls' indexes set aside) rather than one scan per monitoring.
CREATE OR REPLACE FUNCTION pulls_follow_monitorings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[] := '{}';
  accounts text[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    ids := ids || array(SELECT initial_pull_id FROM old_rows WHERE initial_pull_id IS NOT NULL
                        UNION SELECT latest_pull_id FROM old_rows WHERE latest_pull_id IS NOT NULL);
    accounts := accounts || array(SELECT DISTINCT account_identifier FROM old_rows WHERE account_identifier IS NOT NULL);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    ids := ids || array(SELECT initial_pull_id FROM new_rows WHERE initial_pull_id IS NOT NULL
                        UNION SELECT latest_pull_id FROM new_rows WHERE latest_pull_id IS NOT NULL);
    accounts := accounts || array(SELECT DISTINCT account_identifier FROM new_rows WHERE account_identifier IS NOT NULL);
  END IF;
  IF cardinality(ids) = 0 AND cardinality(accounts) = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE pulls p
     SET monitored = NOT p.monitored
   WHERE (p.pull_id = ANY (ids) OR p.account_identifier = ANY (accounts))
     AND p.monitored IS DISTINCT FROM pull_is_monitored(p.pull_id, p.account_identifier);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Transition tables allow one event per trigger: three triggers, one function.
CREATE TRIGGER pulls_follow_monitorings_insert
  AFTER INSERT ON monitorings
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION pulls_follow_monitorings();
--> statement-breakpoint
CREATE TRIGGER pulls_follow_monitorings_update
  AFTER UPDATE ON monitorings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION pulls_follow_monitorings();
--> statement-breakpoint
CREATE TRIGGER pulls_follow_monitorings_delete
  AFTER DELETE ON monitorings
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION pulls_follow_monitorings();
--> statement-breakpoint
-- TRUNCATE fires no DELETE trigger: with no monitoring left, no pull is monitored.
CREATE OR REPLACE FUNCTION pulls_forget_monitorings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE pulls SET monitored = false WHERE monitored;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER pulls_forget_monitorings
  AFTER TRUNCATE ON monitorings
  FOR EACH STATEMENT
  EXECUTE FUNCTION pulls_forget_monitorings();
--> statement-breakpoint
-- The pulls monitorings held before this migration. Asking the rule of each of a million
-- pulls would be a million function calls: the candidates are found by joins first (the pulls
-- some monitoring names, by the primary key and the account index) and the rule asked of those.
UPDATE pulls p
   SET monitored = true
  FROM (
    SELECT initial_pull_id AS pull_id FROM monitorings WHERE initial_pull_id IS NOT NULL
    UNION
    SELECT latest_pull_id FROM monitorings WHERE latest_pull_id IS NOT NULL
    UNION
    SELECT a.pull_id FROM pulls a JOIN monitorings m ON m.account_identifier = a.account_identifier
  ) named
 WHERE p.pull_id = named.pull_id AND pull_is_monitored(p.pull_id, p.account_identifier);
--> statement-breakpoint
-- Statistics of the new column: without them the planner takes half the book for monitored
-- (a few percent are) and walks the whole list in order rather than pulls_list_monitored_idx;
-- the backfill changes too few rows for autovacuum to analyze the table soon.
ANALYZE pulls;
