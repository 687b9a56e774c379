CREATE TABLE "listing_markdown_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"listing_id" integer NOT NULL,
	"day" date NOT NULL,
	"from_cents" integer NOT NULL,
	"to_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_markdowns" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"step_kind" text NOT NULL,
	"step_value" integer NOT NULL,
	"step_cents" integer NOT NULL,
	"every_days" integer NOT NULL,
	"floor_kind" text NOT NULL,
	"floor_value" integer NOT NULL,
	"floor_cents" integer NOT NULL,
	"end_date" date,
	"next_step_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_markdowns_status" CHECK ("listing_markdowns"."status" IN ('active', 'paused', 'floor', 'ended', 'cancelled')),
	CONSTRAINT "listing_markdowns_amounts" CHECK ("listing_markdowns"."step_cents" > 0 AND "listing_markdowns"."floor_cents" > 0 AND "listing_markdowns"."every_days" BETWEEN 1 AND 365)
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "own_price_cents" integer;--> statement-breakpoint
ALTER TABLE "listing_markdown_steps" ADD CONSTRAINT "listing_markdown_steps_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_markdowns" ADD CONSTRAINT "listing_markdowns_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "markdown_steps_listing_day_idx" ON "listing_markdown_steps" USING btree ("listing_id","day");--> statement-breakpoint
CREATE INDEX "markdown_steps_day_idx" ON "listing_markdown_steps" USING btree ("day","id");--> statement-breakpoint
CREATE INDEX "markdowns_due_idx" ON "listing_markdowns" USING btree ("next_step_date") WHERE "listing_markdowns"."status" = 'active';--> statement-breakpoint
CREATE INDEX "markdowns_end_idx" ON "listing_markdowns" USING btree ("end_date") WHERE "listing_markdowns"."status" IN ('active', 'paused') AND "listing_markdowns"."end_date" IS NOT NULL;--> statement-breakpoint
-- A listing's price_cents is the lower of its own price (a markdown, docs/product/markdowns.md) and the catalogue's:
-- listings get a copy function of their own (listing_requests keep marketplace_copy_variation_keys of 0004). A swap
-- listing has no price of its own (a sell listing turned into a swap goes back to the catalogue price).
CREATE OR REPLACE FUNCTION marketplace_copy_listing_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.listing_type = 'swap' THEN
    NEW.own_price_cents := NULL;
  END IF;
  SELECT lower(v.sku), LEAST(NEW.own_price_cents, v.price_cents) INTO NEW.sku_key, NEW.price_cents
    FROM product_variations v WHERE v.id = NEW.variation_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER listings_copy_variation_keys ON "listings";--> statement-breakpoint
CREATE TRIGGER listings_copy_variation_keys BEFORE INSERT OR UPDATE OF variation_id, own_price_cents, listing_type ON "listings"
  FOR EACH ROW EXECUTE FUNCTION marketplace_copy_listing_keys();--> statement-breakpoint
CREATE OR REPLACE FUNCTION marketplace_variation_keys_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET sku_key = lower(NEW.sku), price_cents = LEAST(own_price_cents, NEW.price_cents) WHERE variation_id = NEW.id;
  UPDATE listing_requests SET sku_key = lower(NEW.sku), price_cents = NEW.price_cents WHERE variation_id = NEW.id;
  RETURN NULL;
END
$$;
