ALTER TABLE "webhook_events" ADD COLUMN "workflow_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "signal_name" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "signal_arg" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" USING btree ("next_attempt_at") WHERE processed_at IS NULL AND workflow_id IS NOT NULL;