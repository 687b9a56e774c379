ALTER TABLE "users" ADD COLUMN "buy_limit_order_cents" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "buy_limit_month_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "approved_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_approved_by_user_id_users_id_fk" FOREIGN KEY ("approved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;