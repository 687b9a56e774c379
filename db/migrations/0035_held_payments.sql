CREATE TABLE "held_payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "held_payments" (
	"payment_id" integer PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"need" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"last_key" text NOT NULL,
	"retry" jsonb NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_tried_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retry_due_at" timestamp with time zone,
	"resolution" text,
	"resolution_note" text,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "held_payment_events" ADD CONSTRAINT "held_payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_payment_events" ADD CONSTRAINT "held_payment_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_payments" ADD CONSTRAINT "held_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_payments" ADD CONSTRAINT "held_payments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "held_payment_events_payment_idx" ON "held_payment_events" USING btree ("payment_id","at");--> statement-breakpoint
CREATE INDEX "held_payments_open_idx" ON "held_payments" USING btree ("held_at") WHERE "held_payments"."resolved_at" IS NULL;