ALTER TABLE "pulls" ADD COLUMN "lost_category" text;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "lost_to_carrier" text;--> statement-breakpoint
ALTER TABLE "pulls" ADD COLUMN "lost_to_premium_cents" bigint;