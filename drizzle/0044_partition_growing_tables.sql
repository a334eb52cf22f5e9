-- The three tables that only grow (the audit trail, the webhook inbox, monitoring events) become
-- partitioned by month of their time column, so a time-bounded query reads only its months and
-- the retention schedule drops a whole month of audit rows at once instead of deleting it row by
-- row. Written by hand: drizzle cannot say PARTITION BY. The snapshot agrees with this file on
-- every column, key and index; only the partitioning itself is not in it (docs/growth.md).
--
-- A partitioned table's primary key and unique indexes must hold the partition key: the keys
-- become (id, at) and (id, received_at), `id` still drawn from the table's one sequence. The two
-- uniqueness rules that did not hold the time (the inbox's dedup key, one monitoring event per
-- inbox row) move to two small tables of keys, claimed in the statement that inserts the row.
CREATE TABLE "webhook_event_keys" (
	"dedup_key" text PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_event_keys" (
	"inbox_event_id" bigint PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL
);
--> statement-breakpoint
-- One month's partition of one of the three tables (UTC months, named <table>_YYYY_MM), unless it
-- is there already. A month whose rows already went to the DEFAULT partition (no partition was
-- ready when they came) keeps them there: creating its partition would have to move rows, which
-- the audit trail's trigger refuses. False when nothing was created. Runs as the tables' owner:
-- the app's role owns nothing, so it can create partitions only through this function.
CREATE OR REPLACE FUNCTION create_month_partition(parent text, month date) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET "TimeZone" = 'UTC' AS $$
DECLARE
  key text := CASE parent WHEN 'audit_events' THEN 'at' WHEN 'webhook_events' THEN 'received_at'
    WHEN 'monitoring_events' THEN 'received_at' END;
  from_at timestamptz := date_trunc('month', month::timestamp) AT TIME ZONE 'UTC';
  to_at timestamptz := (date_trunc('month', month::timestamp) + interval '1 month') AT TIME ZONE 'UTC';
  name text := parent || '_' || to_char(month, 'YYYY_MM');
  in_default boolean;
BEGIN
  IF key IS NULL OR month IS NULL THEN
    RAISE EXCEPTION 'create_month_partition: % is not partitioned by month here', parent;
  END IF;
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= $1 AND %I < $2)', parent || '_default', key, key)
    INTO in_default USING from_at, to_at;
  IF in_default THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, from_at, to_at);
  RETURN true;
END;
$$;
--> statement-breakpoint
-- This month's partitions and the next months_ahead months' of the three tables (the scheduled
-- job lib/jobs/catalog.ts "partition-upkeep" calls it daily and at start). Answers how many it made.
CREATE OR REPLACE FUNCTION ensure_month_partitions(months_ahead integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET "TimeZone" = 'UTC' AS $$
DECLARE
  created integer := 0;
  parent text;
  m integer;
BEGIN
  IF months_ahead IS NULL OR months_ahead < 0 OR months_ahead > 24 THEN
    RAISE EXCEPTION 'ensure_month_partitions: between 0 and 24 months ahead';
  END IF;
  -- Two instances starting at once would both try to create the same table.
  PERFORM pg_advisory_xact_lock(hashtext('coverdesk:partitions'));
  FOREACH parent IN ARRAY ARRAY['audit_events', 'webhook_events', 'monitoring_events'] LOOP
    FOR m IN 0..months_ahead LOOP
      IF create_month_partition(parent, (date_trunc('month', now()) + make_interval(months => m))::date) THEN
        created := created + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN created;
END;
$$;
--> statement-breakpoint
-- The conversion: each table renamed aside, its partitioned successor made with the same columns
-- and defaults (the id's default keeps its sequence), a DEFAULT partition so that no insert ever
-- fails, one partition a month from the oldest row's month to the newest's, the rows copied with
-- their ids, the old table dropped (its sequence handed over first). Dropping the old audit table
-- fires no row trigger: only the owner, migrating, can.
DO $$
DECLARE
  t record;
  first_month date;
  last_month date;
  m date;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('audit_events', 'at'), ('webhook_events', 'received_at'),
                                 ('monitoring_events', 'received_at')) AS v(name, key) LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', t.name, t.name || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY RANGE (%I)',
      t.name, t.name || '_unpartitioned', t.key);
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t.name || '_default', t.name);
    EXECUTE format('SELECT (date_trunc(''month'', min(%1$I) AT TIME ZONE ''UTC''))::date, (date_trunc(''month'', max(%1$I) AT TIME ZONE ''UTC''))::date FROM %2$I',
      t.key, t.name || '_unpartitioned') INTO first_month, last_month;
    m := first_month;
    WHILE m <= last_month LOOP
      PERFORM create_month_partition(t.name, m);
      m := (m + interval '1 month')::date;
    END LOOP;
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', t.name, t.name || '_unpartitioned');
    EXECUTE format('ALTER SEQUENCE %I OWNED BY NONE', t.name || '_id_seq');
    EXECUTE format('DROP TABLE %I', t.name || '_unpartitioned');
    EXECUTE format('ALTER SEQUENCE %I OWNED BY %I.id', t.name || '_id_seq', t.name);
  END LOOP;
  PERFORM ensure_month_partitions(3);
END;
$$;
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_id_at_pk" PRIMARY KEY("id","at");--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_id_received_at_pk" PRIMARY KEY("id","received_at");--> statement-breakpoint
ALTER TABLE "monitoring_events" ADD CONSTRAINT "monitoring_events_id_received_at_pk" PRIMARY KEY("id","received_at");--> statement-breakpoint
CREATE INDEX "audit_events_pull_id_idx" ON "audit_events" USING btree ("pull_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_session_id_idx" ON "audit_events" USING btree ("session_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_address_idx" ON "audit_events" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_id_idx" ON "audit_events" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_subject_action_idx" ON "audit_events" USING btree ("subject_user_id","action","at");--> statement-breakpoint
CREATE INDEX "webhook_events_due_idx" ON "webhook_events" USING btree ("next_attempt_at") WHERE "webhook_events"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "webhook_events_status_idx" ON "webhook_events" USING btree ("status");--> statement-breakpoint
CREATE INDEX "webhook_events_pull_id_idx" ON "webhook_events" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "webhook_events_type_received_idx" ON "webhook_events" USING btree ("event_type","received_at");--> statement-breakpoint
CREATE INDEX "monitoring_events_monitoring_id_idx" ON "monitoring_events" USING btree ("monitoring_id");--> statement-breakpoint
CREATE INDEX "monitoring_events_pull_id_idx" ON "monitoring_events" USING btree ("pull_id");--> statement-breakpoint
-- The keys the old unique indexes held, for the rows already there.
INSERT INTO "webhook_event_keys" ("dedup_key", "event_id") SELECT "dedup_key", "id" FROM "webhook_events";--> statement-breakpoint
INSERT INTO "monitoring_event_keys" ("inbox_event_id", "event_id") SELECT "inbox_event_id", "id" FROM "monitoring_events";--> statement-breakpoint
-- A key lives as long as its row, whichever way the row goes (erasure, disposal, an operator's
-- DELETE or TRUNCATE): a body whose inbox row was removed is accepted again, as before 0044. An
-- UPDATE that moves a row to another month fires DELETE triggers too: the row found still there,
-- its key stays.
CREATE OR REPLACE FUNCTION webhook_event_keys_follow_delete() RETURNS trigger AS $$
BEGIN
  DELETE FROM webhook_event_keys
  WHERE dedup_key = OLD.dedup_key AND event_id = OLD.id
    AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER webhook_events_forget_key
  AFTER DELETE ON webhook_events
  FOR EACH ROW EXECUTE FUNCTION webhook_event_keys_follow_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhook_event_keys_follow_truncate() RETURNS trigger AS $$
BEGIN
  TRUNCATE webhook_event_keys;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER webhook_events_forget_keys
  AFTER TRUNCATE ON webhook_events
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_event_keys_follow_truncate();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION monitoring_event_keys_follow_delete() RETURNS trigger AS $$
BEGIN
  DELETE FROM monitoring_event_keys
  WHERE inbox_event_id = OLD.inbox_event_id AND event_id = OLD.id
    AND NOT EXISTS (SELECT 1 FROM monitoring_events e WHERE e.id = OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER monitoring_events_forget_key
  AFTER DELETE ON monitoring_events
  FOR EACH ROW EXECUTE FUNCTION monitoring_event_keys_follow_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION monitoring_event_keys_follow_truncate() RETURNS trigger AS $$
BEGIN
  TRUNCATE monitoring_event_keys;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER monitoring_events_forget_keys
  AFTER TRUNCATE ON monitoring_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_event_keys_follow_truncate();
--> statement-breakpoint
-- The append-only trigger (0007, its function as 0041 left it) on the partitioned trail: a row
-- trigger of a partitioned table is cloned onto every partition, those made later included.
CREATE TRIGGER audit_events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
-- Disposal (0040) by whole months: a partition whose every row is past the cutoff (its upper
-- bound at or before least(before, now() - 60 months)) and holds no row of a pull on legal hold
-- is dropped at once; the rest (the boundary month, a held month, the DEFAULT partition) row by
-- row as before, through the trigger's disposal exception, at most max_rows rows a call. Dropping
-- a table fires no row trigger, so this function (run as the owner, the one role that may drop a
-- partition: the app's role owns nothing) is the only way a partition of the trail goes, and it
-- keeps the same five-year floor. Answers how many rows went.
CREATE OR REPLACE FUNCTION dispose_audit_events(before timestamptz, keep_pull_ids uuid[], max_rows integer)
RETURNS integer
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
SET "TimeZone" = 'UTC'
AS $$
DECLARE
  cutoff timestamptz := least(before, now() - interval '60 months');
  keep uuid[] := coalesce(keep_pull_ids, '{}'::uuid[]);
  part record;
  held boolean;
  n integer;
  removed integer := 0;
BEGIN
  IF before IS NULL OR max_rows IS NULL OR max_rows < 1 OR max_rows > 10000 THEN
    RAISE EXCEPTION 'dispose_audit_events: a cutoff and a batch of 1 to 10000 rows are required';
  END IF;
  FOR part IN
    SELECT b.rel, b.upper_bound FROM (
      SELECT c.oid::regclass AS rel,
        (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz AS upper_bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_events'::regclass
    ) b
    WHERE b.upper_bound IS NOT NULL AND b.upper_bound <= cutoff
    ORDER BY b.upper_bound
  LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE pull_id = ANY($1))', part.rel) INTO held USING keep;
    CONTINUE WHEN held;
    EXECUTE format('SELECT count(*) FROM %s', part.rel) INTO n;
    EXECUTE format('DROP TABLE %s', part.rel);
    removed := removed + n;
  END LOOP;
  PERFORM set_config('coverdesk.audit_disposal_before', cutoff::text, true);
  DELETE FROM audit_events
  WHERE id IN (
    SELECT a.id FROM audit_events a
    WHERE a.at < cutoff
      AND (a.pull_id IS NULL OR NOT (a.pull_id = ANY (keep)))
    ORDER BY a.at, a.id
    LIMIT max_rows
  )
  AND at < cutoff;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('coverdesk.audit_disposal_before', '', true);
  RETURN removed + n;
END;
$$;
--> statement-breakpoint
-- Statistics of the new tables and their partitions at once: autovacuum analyzes each partition as
-- it fills, but never a partitioned table itself.
ANALYZE "audit_events";--> statement-breakpoint
ANALYZE "webhook_events";--> statement-breakpoint
ANALYZE "monitoring_events";
