-- Issue 39: the song-browse index is good while the songs' version (their count, the highest id,
-- the missing ones) is unchanged. On the embedded database (one process) reading that version on
-- every browse call cost a query per call; instead every statement that changes it announces it
-- on `encore_songs`, and the process reads the version again only after an announcement.
-- Statement-level: an import of a thousand rows announces once.
CREATE FUNCTION "encore_announce_songs_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		IF EXISTS (SELECT 1 FROM new_songs) THEN PERFORM pg_notify('encore_songs', ''); END IF;
	ELSIF TG_OP = 'DELETE' THEN
		IF EXISTS (SELECT 1 FROM old_songs) THEN PERFORM pg_notify('encore_songs', ''); END IF;
	ELSIF EXISTS (
		SELECT 1 FROM new_songs AS n JOIN old_songs AS o ON o."id" = n."id"
		WHERE n."missing_since" IS DISTINCT FROM o."missing_since"
	) THEN
		PERFORM pg_notify('encore_songs', '');
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "songs_changed_insert" AFTER INSERT ON "songs" REFERENCING NEW TABLE AS new_songs
FOR EACH STATEMENT EXECUTE FUNCTION "encore_announce_songs_changed"();--> statement-breakpoint
CREATE TRIGGER "songs_changed_delete" AFTER DELETE ON "songs" REFERENCING OLD TABLE AS old_songs
FOR EACH STATEMENT EXECUTE FUNCTION "encore_announce_songs_changed"();--> statement-breakpoint
CREATE TRIGGER "songs_changed_update" AFTER UPDATE ON "songs" REFERENCING OLD TABLE AS old_songs NEW TABLE AS new_songs
FOR EACH STATEMENT EXECUTE FUNCTION "encore_announce_songs_changed"();
