CREATE TABLE "playlist_removed_songs" (
	"playlist_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playlist_removed_songs_playlist_id_song_id_pk" PRIMARY KEY("playlist_id","song_id")
);
--> statement-breakpoint
ALTER TABLE "playlist_songs" ADD COLUMN "generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "ai_size" jsonb;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "keep_fresh" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "playlist_removed_songs" ADD CONSTRAINT "playlist_removed_songs_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_removed_songs" ADD CONSTRAINT "playlist_removed_songs_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playlist_removed_songs_song_idx" ON "playlist_removed_songs" USING btree ("song_id");--> statement-breakpoint
-- Playlists generated from a prompt before this migration: their songs are the ranking's, and their size the default one
-- (More like this playlists, named "More like …", are not ranked from a prompt and stay without a size).
UPDATE "playlists" SET "ai_size" = '{}'::jsonb WHERE "ai_prompt" IS NOT NULL AND "ai_prompt" NOT LIKE 'More like %';--> statement-breakpoint
UPDATE "playlist_songs" SET "generated" = true WHERE "playlist_id" IN (SELECT "id" FROM "playlists" WHERE "ai_prompt" IS NOT NULL);
