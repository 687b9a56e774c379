DROP INDEX "uploads_unattached_idx";--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "rma_id" integer;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_source_id" integer;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_reason" integer;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_reason_other" text;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_quantity_requested" integer;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_approved" boolean;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_approval_comment" text;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD COLUMN "rma_pictures" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_for_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_contact_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_contact_email" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_contact_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_packing_slip_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rma_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_rma_for_victim_idx" ON "orders" USING btree ("rma_for_id","provider_id") WHERE "orders"."transaction_type" = 3;--> statement-breakpoint
CREATE INDEX "uploads_unattached_idx" ON "uploads" USING btree ("uploaded_at") WHERE "uploads"."listing_id" is null and "uploads"."rma_id" is null;