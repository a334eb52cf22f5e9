CREATE TABLE "pull_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pull_id" uuid NOT NULL,
	"content_hash" text NOT NULL,
	"raw" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pull_versions" ADD CONSTRAINT "pull_versions_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pull_versions_pull_id_idx" ON "pull_versions" USING btree ("pull_id","replaced_at");