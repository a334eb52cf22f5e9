CREATE TABLE "enrichment_answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"question_key" text NOT NULL,
	"account_key" text NOT NULL,
	"pull_id" uuid,
	"subject_key" text NOT NULL,
	"question" jsonb NOT NULL,
	"purpose" text,
	"status" text DEFAULT 'ASKING' NOT NULL,
	"answer" jsonb,
	"error" text,
	"asked_by" uuid,
	"asked_by_name" text,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "policy_check_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pull_id" uuid NOT NULL,
	"status" text,
	"results" jsonb,
	"settings" jsonb NOT NULL,
	"ran_by" uuid,
	"ran_by_name" text,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicing_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"pull_id" uuid NOT NULL,
	"account_key" text NOT NULL,
	"action_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"servicing_pull_id" uuid,
	"session_jwt" text,
	"servicing_action_id" text,
	"status" text,
	"validation_error_type" text,
	"confirmation_data" jsonb,
	"consumer_answer" text,
	"consumer_answered_at" timestamp with time zone,
	"error" text,
	"requested_by" uuid,
	"requested_by_name" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enrichment_answers" ADD CONSTRAINT "enrichment_answers_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_check_runs" ADD CONSTRAINT "policy_check_runs_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicing_requests" ADD CONSTRAINT "servicing_requests_pull_id_pulls_pull_id_fk" FOREIGN KEY ("pull_id") REFERENCES "public"."pulls"("pull_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrichment_answers_question_idx" ON "enrichment_answers" USING btree ("kind","question_key");--> statement-breakpoint
CREATE INDEX "enrichment_answers_account_idx" ON "enrichment_answers" USING btree ("account_key");--> statement-breakpoint
CREATE INDEX "enrichment_answers_pull_idx" ON "enrichment_answers" USING btree ("pull_id");--> statement-breakpoint
CREATE INDEX "policy_check_runs_pull_idx" ON "policy_check_runs" USING btree ("pull_id","ran_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "servicing_requests_pull_idx" ON "servicing_requests" USING btree ("pull_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "servicing_requests_account_idx" ON "servicing_requests" USING btree ("account_key");--> statement-breakpoint
CREATE UNIQUE INDEX "servicing_requests_action_idx" ON "servicing_requests" USING btree ("servicing_action_id") WHERE "servicing_requests"."servicing_action_id" is not null;--> statement-breakpoint
CREATE INDEX "servicing_requests_servicing_pull_idx" ON "servicing_requests" USING btree ("servicing_pull_id");