-- Search ignores case and accents and tolerates a typo: pg_trgm indexes the folded text, unaccent folds it.
-- Both are trusted extensions (a database owner may create them) and ship with PGlite's contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); a generated column and an index need an
-- IMMUTABLE function, so this wrapper names the dictionary explicitly and promises it does not.
CREATE OR REPLACE FUNCTION encore_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;--> statement-breakpoint
ALTER TABLE "songs" ADD COLUMN "search_text" text GENERATED ALWAYS AS (encore_fold(coalesce(display_name, '') || ' ' || coalesce(artist, '') || ' ' || coalesce(album, ''))) STORED;--> statement-breakpoint
CREATE INDEX "songs_search_trgm_idx" ON "songs" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "songs_title_sort_idx" ON "songs" USING btree (lower("display_name"),"id");--> statement-breakpoint
CREATE INDEX "songs_artist_sort_idx" ON "songs" USING btree (lower("artist"),lower("album"),"track_number","id");--> statement-breakpoint
CREATE INDEX "songs_album_sort_idx" ON "songs" USING btree (lower("album"),"track_number","id");