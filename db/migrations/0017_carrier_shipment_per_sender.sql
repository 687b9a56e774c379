-- A swap ships both ways: the sandbox carrier keeps one shipment per order and sender. Rows booked before
-- this are purchases, sent by the order's provider.
DROP INDEX "sandbox_carrier_shipments_order_idx";--> statement-breakpoint
ALTER TABLE "sandbox_carrier_shipments" ADD COLUMN "sender_id" integer;--> statement-breakpoint
UPDATE "sandbox_carrier_shipments" s SET "sender_id" = COALESCE((s."label_data"->>'senderId')::int, (SELECT o."provider_id" FROM "orders" o WHERE o."id" = s."order_id"), 0);--> statement-breakpoint
ALTER TABLE "sandbox_carrier_shipments" ALTER COLUMN "sender_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_carrier_shipments_order_idx" ON "sandbox_carrier_shipments" USING btree ("order_id","sender_id");
