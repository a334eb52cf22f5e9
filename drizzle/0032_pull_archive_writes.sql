CREATE TABLE "pull_archive_writes" (
	"pull_id" uuid PRIMARY KEY NOT NULL,
	"archived" boolean NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "pull_archive_writes" ADD CONSTRAINT "pull_archive_writes_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pull_archive_writes_due_idx" ON "pull_archive_writes" USING btree ("next_attempt_at");