CREATE TABLE "music_folder_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder" text NOT NULL,
	"path" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"mtime_ms" bigint NOT NULL,
	"fingerprint" text,
	"content_type" text NOT NULL,
	"song_id" integer,
	"problem" text,
	"missing_since" timestamp with time zone,
	"cover_path" text,
	"lrc_mtime_ms" bigint
);
--> statement-breakpoint
CREATE TABLE "music_folder_playlists" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder" text NOT NULL,
	"path" text NOT NULL,
	"mtime_ms" bigint NOT NULL,
	"size" bigint NOT NULL,
	"playlist_id" integer,
	"missing" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "music_folder_scan" (
	"id" integer PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone,
	"state" text DEFAULT 'idle' NOT NULL,
	"trigger" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"requested_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "song_search" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "song_search" ADD COLUMN "missing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "missing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "music_folder_files" ADD CONSTRAINT "music_folder_files_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "music_folder_files_path_key" ON "music_folder_files" USING btree ("folder","path");--> statement-breakpoint
CREATE UNIQUE INDEX "music_folder_files_storage_key_key" ON "music_folder_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "music_folder_files_fingerprint_idx" ON "music_folder_files" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "music_folder_files_song_idx" ON "music_folder_files" USING btree ("song_id");--> statement-breakpoint
CREATE UNIQUE INDEX "music_folder_playlists_path_key" ON "music_folder_playlists" USING btree ("folder","path");--> statement-breakpoint
CREATE INDEX "songs_missing_idx" ON "songs" USING btree ("id") WHERE "songs"."missing_since" is not null;--> statement-breakpoint
-- song_search follows songs.missing_since: a missing folder song is left out of lists and searches.
CREATE OR REPLACE FUNCTION encore_song_search_insert() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO song_search (song_id, owner_id, missing, uploaded_at, search_text, title_key, artist_key, album_key, track_number)
    SELECT id, owner_id, missing_since IS NOT NULL, uploaded_at, search_text, lower(display_name), lower(artist), lower(album), track_number FROM new_songs;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION encore_song_search_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE song_search SET owner_id = NEW.owner_id, missing = NEW.missing_since IS NOT NULL, uploaded_at = NEW.uploaded_at, search_text = NEW.search_text,
      title_key = lower(NEW.display_name), artist_key = lower(NEW.artist), album_key = lower(NEW.album), track_number = NEW.track_number
    WHERE song_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER songs_song_search_update ON songs;--> statement-breakpoint
CREATE TRIGGER songs_song_search_update AFTER UPDATE OF display_name, artist, album, track_number, owner_id, uploaded_at, missing_since ON songs
  FOR EACH ROW EXECUTE FUNCTION encore_song_search_update();--> statement-breakpoint
INSERT INTO music_folder_scan (id) VALUES (1) ON CONFLICT DO NOTHING;
