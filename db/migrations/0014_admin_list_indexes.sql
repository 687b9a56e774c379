CREATE INDEX "listings_admin_price_idx" ON "listings" USING btree ("price_cents","id");--> statement-breakpoint
CREATE INDEX "listings_admin_created_idx" ON "listings" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "listings_admin_units_idx" ON "listings" USING btree ("total_units","id");--> statement-breakpoint
CREATE INDEX "listings_admin_sku_trgm_idx" ON "listings" USING gin ("sku_key" gin_trgm_ops);