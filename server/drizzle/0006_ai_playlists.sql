CREATE TABLE "song_analyses" (
	"song_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"features" jsonb,
	"vector" jsonb,
	"reason" text,
	"analyser_version" integer NOT NULL,
	"analysed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "ai_prompt" text;--> statement-breakpoint
ALTER TABLE "song_analyses" ADD CONSTRAINT "song_analyses_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "song_analyses_status_idx" ON "song_analyses" USING btree ("status");