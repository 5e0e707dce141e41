ALTER TABLE "songs" ADD COLUMN "mbz_recording_id" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "mbz_album_id" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "mbz_artist_id" text;