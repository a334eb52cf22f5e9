CREATE TABLE "offices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "office_id" uuid;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "office_id" uuid;--> statement-breakpoint
ALTER TABLE "policy_xdates" ADD COLUMN "office_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "offices_name_unique" ON "offices" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pulls" ADD CONSTRAINT "pulls_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_office_id_idx" ON "users" USING btree ("office_id");--> statement-breakpoint
CREATE INDEX "pulls_office_id_idx" ON "pulls" USING btree ("office_id","assignee_id");--> statement-breakpoint
CREATE INDEX "policy_xdates_office_idx" ON "policy_xdates" USING btree ("office_id","x_date");--> statement-breakpoint
-- A pull belongs to its assignee's office: whenever the assignee changes (a manager's assignment,
-- a claim, an assignment rule, speed to lead, a carry-over), the pull takes the new assignee's
-- office, whichever command made the change. Unassigned, it keeps its office (it stays in that
-- office's queue); a rule may also route an unassigned pull to an office by setting office_id.
CREATE OR REPLACE FUNCTION pulls_take_assignee_office() RETURNS trigger AS $$
BEGIN
  IF NEW.assignee_id IS NOT NULL THEN
    NEW.office_id := (SELECT office_id FROM users WHERE id = NEW.assignee_id);
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER pulls_take_assignee_office_on_insert
  BEFORE INSERT ON pulls
  FOR EACH ROW
  WHEN (NEW.assignee_id IS NOT NULL)
  EXECUTE FUNCTION pulls_take_assignee_office();
--> statement-breakpoint
CREATE TRIGGER pulls_take_assignee_office_on_update
  BEFORE UPDATE OF assignee_id ON pulls
  FOR EACH ROW
  WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id AND NEW.assignee_id IS NOT NULL)
  EXECUTE FUNCTION pulls_take_assignee_office();
--> statement-breakpoint
-- policy_xdates copies the pull's office like its assignee (0019's trigger, extended).
CREATE OR REPLACE FUNCTION policy_xdates_follow_pull() RETURNS trigger AS $$
BEGIN
  UPDATE policy_xdates
     SET assignee_id = NEW.assignee_id, office_id = NEW.office_id, stage = NEW.stage,
         public_alias = NEW.public_alias, updated_at = now()
   WHERE pull_id = NEW.pull_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER policy_xdates_follow_pull ON pulls;
--> statement-breakpoint
CREATE TRIGGER policy_xdates_follow_pull
  AFTER UPDATE OF assignee_id, office_id, stage, public_alias ON pulls
  FOR EACH ROW
  WHEN (OLD.assignee_id IS DISTINCT FROM NEW.assignee_id OR OLD.office_id IS DISTINCT FROM NEW.office_id
        OR OLD.stage IS DISTINCT FROM NEW.stage OR OLD.public_alias IS DISTINCT FROM NEW.public_alias)
  EXECUTE FUNCTION policy_xdates_follow_pull();
--> statement-breakpoint
-- Backfill: a pull takes its assignee's office (none has one yet on a fresh upgrade, so this is
-- for a database where users were given offices before the pulls were marked), and the X-date
-- copies follow their pull.
UPDATE pulls p SET office_id = u.office_id
  FROM users u
 WHERE u.id = p.assignee_id AND u.office_id IS NOT NULL AND p.office_id IS DISTINCT FROM u.office_id;
--> statement-breakpoint
UPDATE policy_xdates x SET office_id = p.office_id
  FROM pulls p
 WHERE p.pull_id = x.pull_id AND p.office_id IS NOT NULL AND x.office_id IS DISTINCT FROM p.office_id;
