CREATE INDEX "orders_brand_created_idx" ON "orders" USING btree ("brand_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");