-- songs.transcript keeps the plain text of the song's lyrics (the song detail and the AI playlists'
-- ranking read it there). The database writes it in the transaction that writes the lyrics, so
-- the two never disagree and neither module's code writes the other's table.
CREATE OR REPLACE FUNCTION encore_mirror_lyrics_text() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE songs SET transcript = nullif(NEW.text, '') WHERE id = NEW.song_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER lyrics_transcript_mirror AFTER INSERT OR UPDATE OF text ON lyrics
  FOR EACH ROW EXECUTE FUNCTION encore_mirror_lyrics_text();
