ALTER TABLE "payment_methods" ADD COLUMN "provider_customer_id" text;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "draft_order_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;