ALTER TABLE "pulls" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "projection_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "stage" text DEFAULT 'WORKING' NOT NULL;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "pulls" ADD CONSTRAINT "pulls_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pulls_search_text_trgm_idx" ON "pulls" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pulls_total_premium_cents_idx" ON "pulls" USING btree ("total_premium_cents");--> statement-breakpoint
CREATE INDEX "pulls_next_expiry_date_idx" ON "pulls" USING btree ("next_expiry_date");--> statement-breakpoint
CREATE INDEX "pulls_provider_name_idx" ON "pulls" USING btree ("provider_name");--> statement-breakpoint
CREATE INDEX "pulls_type_idx" ON "pulls" USING btree ("type");--> statement-breakpoint
CREATE INDEX "pulls_stage_idx" ON "pulls" USING btree ("stage");--> statement-breakpoint
CREATE INDEX "pulls_assignee_id_idx" ON "pulls" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "pulls_policy_types_idx" ON "pulls" USING gin ("policy_types");