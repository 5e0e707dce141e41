CREATE TABLE "listenbrainz_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"token_encrypted" text NOT NULL,
	"user_name" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_submitted_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "song_analyses" ADD COLUMN "loudness" jsonb;--> statement-breakpoint
ALTER TABLE "listenbrainz_links" ADD CONSTRAINT "listenbrainz_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;