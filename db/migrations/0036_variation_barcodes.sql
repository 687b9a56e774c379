ALTER TABLE "product_variations" ADD COLUMN "barcodes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "variations_barcodes_idx" ON "product_variations" USING gin ("barcodes");--> statement-breakpoint
-- Barcodes kept until now in the options (upc, ean, gtin) move to the column the stock import reads.
UPDATE "product_variations" SET "barcodes" = array_remove(array["options"->>'upc', "options"->>'ean', "options"->>'gtin'], NULL) WHERE "options" ?| array['upc', 'ean', 'gtin'];
