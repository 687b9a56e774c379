ALTER TABLE "sandbox_carrier_shipments" ALTER COLUMN "label_pdf" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_carrier_shipments" ADD COLUMN "label_data" jsonb;