-- Marketplace browsing (db/queries/marketplace.ts): ordering keys copied from the variation onto listings and
-- requests, kept by triggers (writers need not set them), partial indexes per brand (and listing type) for
-- each ordering, and trigram indexes for the product-code search. See docs/guides/marketplace.md.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "listing_requests" ADD COLUMN "sku_key" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_requests" ADD COLUMN "price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "sku_key" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "listings" l SET "sku_key" = lower(v."sku"), "price_cents" = v."price_cents" FROM "product_variations" v WHERE v."id" = l."variation_id";--> statement-breakpoint
UPDATE "listing_requests" r SET "sku_key" = lower(v."sku"), "price_cents" = v."price_cents" FROM "product_variations" v WHERE v."id" = r."variation_id";--> statement-breakpoint
CREATE OR REPLACE FUNCTION marketplace_copy_variation_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower(v.sku), v.price_cents INTO NEW.sku_key, NEW.price_cents
    FROM product_variations v WHERE v.id = NEW.variation_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER listings_copy_variation_keys BEFORE INSERT OR UPDATE OF variation_id ON "listings"
  FOR EACH ROW EXECUTE FUNCTION marketplace_copy_variation_keys();--> statement-breakpoint
CREATE TRIGGER listing_requests_copy_variation_keys BEFORE INSERT OR UPDATE OF variation_id ON "listing_requests"
  FOR EACH ROW EXECUTE FUNCTION marketplace_copy_variation_keys();--> statement-breakpoint
CREATE OR REPLACE FUNCTION marketplace_variation_keys_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET sku_key = lower(NEW.sku), price_cents = NEW.price_cents WHERE variation_id = NEW.id;
  UPDATE listing_requests SET sku_key = lower(NEW.sku), price_cents = NEW.price_cents WHERE variation_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER product_variations_marketplace_keys AFTER UPDATE OF sku, price_cents ON "product_variations"
  FOR EACH ROW WHEN (OLD.sku IS DISTINCT FROM NEW.sku OR OLD.price_cents IS DISTINCT FROM NEW.price_cents)
  EXECUTE FUNCTION marketplace_variation_keys_changed();--> statement-breakpoint
CREATE INDEX "listing_requests_market_recent_idx" ON "listing_requests" USING btree ("brand_id","created_at","id") WHERE "listing_requests"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listing_requests_market_sku_idx" ON "listing_requests" USING btree ("brand_id","sku_key","id") WHERE "listing_requests"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listing_requests_market_price_idx" ON "listing_requests" USING btree ("brand_id","price_cents","id") WHERE "listing_requests"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listing_requests_market_sku_trgm_idx" ON "listing_requests" USING gin ("sku_key" gin_trgm_ops) WHERE "listing_requests"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listings_market_recent_idx" ON "listings" USING btree ("brand_id","listing_type","created_at","id") WHERE "listings"."status" = 'active' AND "listings"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listings_market_sku_idx" ON "listings" USING btree ("brand_id","listing_type","sku_key","id") WHERE "listings"."status" = 'active' AND "listings"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listings_market_price_idx" ON "listings" USING btree ("brand_id","listing_type","price_cents","id") WHERE "listings"."status" = 'active' AND "listings"."total_units" > 0;--> statement-breakpoint
CREATE INDEX "listings_market_sku_trgm_idx" ON "listings" USING gin ("sku_key" gin_trgm_ops) WHERE "listings"."status" = 'active' AND "listings"."total_units" > 0;
