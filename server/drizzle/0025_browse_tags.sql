ALTER TABLE "songs" ADD COLUMN "compilation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "album_artist_sort" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "artist_sort" text;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "artists" text[];--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "genres" text[];