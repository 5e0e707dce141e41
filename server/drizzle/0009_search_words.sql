CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of a song's search text: split on spaces and ASCII punctuation (letters of any script stay
-- whole); numbers are left out (a typo is only corrected in words of five letters or more).
CREATE OR REPLACE FUNCTION encore_index_search_words() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO search_words (word)
    SELECT DISTINCT piece FROM changed_songs, regexp_split_to_table(changed_songs.search_text, '[[:space:][:punct:]]+') AS piece
    WHERE length(piece) >= 3 AND piece !~ '^[0-9]+$'
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_search_words_insert AFTER INSERT ON songs REFERENCING NEW TABLE AS changed_songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_index_search_words();--> statement-breakpoint
CREATE TRIGGER songs_search_words_update AFTER UPDATE ON songs REFERENCING NEW TABLE AS changed_songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_index_search_words();--> statement-breakpoint
INSERT INTO search_words (word)
  SELECT DISTINCT piece FROM songs, regexp_split_to_table(songs.search_text, '[[:space:][:punct:]]+') AS piece
  WHERE length(piece) >= 3 AND piece !~ '^[0-9]+$'
ON CONFLICT (word) DO NOTHING;
