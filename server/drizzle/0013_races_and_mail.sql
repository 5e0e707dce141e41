CREATE TABLE "mail_deliveries" (
	"job_id" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "playlist_songs_order_idx";--> statement-breakpoint
-- Concurrent adds could give two songs of a playlist the same position: such playlists are
-- numbered 1..n again, in the order they showed (position, then when added, then song id).
UPDATE "playlist_songs" AS "ps" SET "position" = "renumbered"."position"
FROM (
	SELECT "playlist_id", "song_id", row_number() OVER (PARTITION BY "playlist_id" ORDER BY "position", "added_at", "song_id")::integer AS "position"
	FROM "playlist_songs"
	WHERE "playlist_id" IN (SELECT "playlist_id" FROM "playlist_songs" GROUP BY "playlist_id", "position" HAVING count(*) > 1)
) AS "renumbered"
WHERE "ps"."playlist_id" = "renumbered"."playlist_id" AND "ps"."song_id" = "renumbered"."song_id";--> statement-breakpoint
-- DEFERRABLE (checked at the end of each statement): a reorder permutes positions in one UPDATE.
ALTER TABLE "playlist_songs" ADD CONSTRAINT "playlist_songs_position_key" UNIQUE("playlist_id","position") DEFERRABLE INITIALLY IMMEDIATE;--> statement-breakpoint
-- Every bump of a token version (password change or reset, or any later revocation) is
-- announced to every process, whose open event streams of that user end at once.
CREATE FUNCTION "encore_announce_session_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('encore_sessions', NEW."id"::text);
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_session_revoked" AFTER UPDATE OF "token_version" ON "users"
FOR EACH ROW WHEN (OLD."token_version" IS DISTINCT FROM NEW."token_version")
EXECUTE FUNCTION "encore_announce_session_revoked"();
