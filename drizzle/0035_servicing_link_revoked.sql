ALTER TABLE "servicing_requests" ADD COLUMN "link_revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "servicing_requests" ADD COLUMN "link_revoked_by" uuid;