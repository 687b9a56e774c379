ALTER TABLE "shipments" ADD COLUMN "tracking_url" text;--> statement-breakpoint
UPDATE "shipments" SET "tracking_url" = '/tracking/' || "tracking_number" WHERE "carrier" = 'sandbox' AND "tracking_number" ~ '^SBX[0-9]{14}$';
