CREATE TABLE "staff_user_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"permission" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_user_changes" ADD CONSTRAINT "staff_user_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_user_changes" ADD CONSTRAINT "staff_user_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_user_changes_user_idx" ON "staff_user_changes" USING btree ("user_id","at");--> statement-breakpoint
UPDATE "users" SET "admin_permissions" = array_append("admin_permissions", 'staffusers') WHERE "is_staff" AND NOT ('staffusers' = ANY("admin_permissions"));
