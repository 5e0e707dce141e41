-- What a search reads, apart from the songs' wide rows (lyrics, file names, storage keys): each song's
-- search text, owner and sort keys. A search reads every match; on 50,000 songs a typo matching 9,000
-- read 4,600 blocks of songs and reads 1,300 of this.
CREATE TABLE "song_search" (
	"song_id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	"search_text" text NOT NULL,
	"title_key" text NOT NULL,
	"artist_key" text,
	"album_key" text,
	"track_number" integer
);
--> statement-breakpoint
ALTER TABLE "song_search" ADD CONSTRAINT "song_search_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO song_search (song_id, owner_id, uploaded_at, search_text, title_key, artist_key, album_key, track_number)
  SELECT id, owner_id, uploaded_at, search_text, lower(display_name), lower(artist), lower(album), track_number FROM songs;--> statement-breakpoint
DROP INDEX "songs_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "song_search_trgm_idx" ON "song_search" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- New songs, one statement however many rows it inserts (an import inserts a thousand at a time).
CREATE OR REPLACE FUNCTION encore_song_search_insert() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO song_search (song_id, owner_id, uploaded_at, search_text, title_key, artist_key, album_key, track_number)
    SELECT id, owner_id, uploaded_at, search_text, lower(display_name), lower(artist), lower(album), track_number FROM new_songs;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_song_search_insert AFTER INSERT ON songs REFERENCING NEW TABLE AS new_songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_song_search_insert();--> statement-breakpoint
-- A changed title, artist, album, track, owner or upload time; other columns (lyrics, covers) change nothing here.
CREATE OR REPLACE FUNCTION encore_song_search_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE song_search SET owner_id = NEW.owner_id, uploaded_at = NEW.uploaded_at, search_text = NEW.search_text,
      title_key = lower(NEW.display_name), artist_key = lower(NEW.artist), album_key = lower(NEW.album), track_number = NEW.track_number
    WHERE song_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_song_search_update AFTER UPDATE OF display_name, artist, album, track_number, owner_id, uploaded_at ON songs
  FOR EACH ROW EXECUTE FUNCTION encore_song_search_update();
