CREATE TABLE "sandbox_carrier_shipments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"tracking_number" text NOT NULL,
	"call_tag" text NOT NULL,
	"pickup_attempt" integer DEFAULT 1 NOT NULL,
	"pickup_by" timestamp with time zone,
	"status" text DEFAULT 'pre_transit' NOT NULL,
	"pickups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"label_pdf" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"request_hash" text NOT NULL,
	"lines" jsonb NOT NULL,
	"ok" boolean NOT NULL,
	"failed_listing_id" integer,
	"failed_size" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_actions" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "deadlines" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_carrier_shipments_order_idx" ON "sandbox_carrier_shipments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_carrier_shipments_tracking_idx" ON "sandbox_carrier_shipments" USING btree ("tracking_number");--> statement-breakpoint
CREATE INDEX "stock_movements_order_idx" ON "stock_movements" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_actions_dedupe_idx" ON "order_actions" USING btree ("dedupe_key","code");