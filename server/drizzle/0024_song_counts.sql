CREATE TABLE "song_counts" (
	"shard" integer PRIMARY KEY NOT NULL,
	"songs" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Eight rows whose sum is the number of songs, the songs there now in the first.
INSERT INTO song_counts (shard, songs) SELECT shard, CASE WHEN shard = 0 THEN (SELECT count(*) FROM songs) ELSE 0 END FROM generate_series(0, 7) AS shard;--> statement-breakpoint
-- One update per statement however many rows it inserts or deletes (an import inserts a thousand
-- at a time), on the row of the statement's backend: concurrent writers seldom share one.
CREATE OR REPLACE FUNCTION encore_song_counts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  changed bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO changed FROM new_songs;
  ELSE
    SELECT -count(*) INTO changed FROM old_songs;
  END IF;
  IF changed <> 0 THEN
    UPDATE song_counts SET songs = songs + changed WHERE shard = pg_backend_pid() % 8;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_count_insert AFTER INSERT ON songs REFERENCING NEW TABLE AS new_songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_song_counts();--> statement-breakpoint
CREATE TRIGGER songs_count_delete AFTER DELETE ON songs REFERENCING OLD TABLE AS old_songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_song_counts();
