CREATE TABLE "legal_holds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pull_id" uuid,
	"account_key" text,
	"reason" text NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"placed_by" uuid,
	"placed_by_name" text,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"lifted_by_name" text,
	"lift_reason" text,
	CONSTRAINT "legal_holds_one_subject" CHECK (("legal_holds"."pull_id" is null) <> ("legal_holds"."account_key" is null))
);
--> statement-breakpoint
CREATE TABLE "retention_schedule" (
	"kind" text PRIMARY KEY NOT NULL,
	"months" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE UNIQUE INDEX "legal_holds_pull_held_idx" ON "legal_holds" USING btree ("pull_id") WHERE "legal_holds"."lifted_at" is null and "legal_holds"."pull_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_holds_account_held_idx" ON "legal_holds" USING btree ("account_key") WHERE "legal_holds"."lifted_at" is null and "legal_holds"."account_key" is not null;--> statement-breakpoint
CREATE INDEX "legal_holds_placed_at_idx" ON "legal_holds" USING btree ("placed_at");