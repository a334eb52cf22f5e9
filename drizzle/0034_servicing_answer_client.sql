ALTER TABLE "servicing_requests" ADD COLUMN "consumer_answered_ip" text;--> statement-breakpoint
ALTER TABLE "servicing_requests" ADD COLUMN "consumer_answered_user_agent" text;