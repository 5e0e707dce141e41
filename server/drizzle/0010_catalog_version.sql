CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION encore_bump_catalog_version() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE catalog_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER songs_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON songs
  FOR EACH STATEMENT EXECUTE FUNCTION encore_bump_catalog_version();--> statement-breakpoint
CREATE TRIGGER song_analyses_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON song_analyses
  FOR EACH STATEMENT EXECUTE FUNCTION encore_bump_catalog_version();
