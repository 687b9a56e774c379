CREATE TABLE "reconciliation_difference_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"difference_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked" integer NOT NULL,
	"listed" integer,
	"recorded" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD COLUMN "resolved_by" integer;--> statement-breakpoint
ALTER TABLE "reconciliation_difference_events" ADD CONSTRAINT "reconciliation_difference_events_difference_id_reconciliation_differences_id_fk" FOREIGN KEY ("difference_id") REFERENCES "public"."reconciliation_differences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_difference_events" ADD CONSTRAINT "reconciliation_difference_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_difference_events_difference_idx" ON "reconciliation_difference_events" USING btree ("difference_id","at");--> statement-breakpoint
CREATE INDEX "reconciliation_runs_day_idx" ON "reconciliation_runs" USING btree ("day","finished_at");--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_differences_payment_idx" ON "reconciliation_differences" USING btree ("payment_id");