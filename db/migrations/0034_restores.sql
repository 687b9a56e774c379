CREATE TABLE "restores" (
	"id" serial PRIMARY KEY NOT NULL,
	"backup" text NOT NULL,
	"backup_taken_at" timestamp with time zone NOT NULL,
	"restored_at" timestamp with time zone DEFAULT now() NOT NULL
);
