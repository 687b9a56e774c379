CREATE TABLE "reconciliation_differences" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"payment_id" integer,
	"ledger_cents" integer,
	"provider_cents" integer,
	"provider_ref" text,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_differences_key_idx" ON "reconciliation_differences" USING btree ("day","idempotency_key","kind");--> statement-breakpoint
CREATE INDEX "reconciliation_differences_open_idx" ON "reconciliation_differences" USING btree ("found_at") WHERE "reconciliation_differences"."resolved_at" IS NULL;