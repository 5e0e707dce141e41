-- Issue 39: each process keeps the credentials it has verified (API keys, app passwords, session
-- tokens) in memory. Whatever could make one of them stop being good (the account renamed,
-- demoted, disabled, its password or token version changed, the account deleted, a key or an
-- app password revoked) is announced with the user's id on `encore_credentials`, by any path
-- (an admin page, the CLI, a cascade), and every process forgets that user's entries.
CREATE FUNCTION "encore_announce_credentials_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'users' THEN
		PERFORM pg_notify('encore_credentials', OLD."id"::text);
	ELSE
		PERFORM pg_notify('encore_credentials', OLD."user_id"::text);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_credentials_changed" AFTER UPDATE ON "users"
FOR EACH ROW WHEN (
	(OLD."user_name", OLD."email", OLD."role", OLD."token_version", OLD."disabled_at", OLD."password_hash")
	IS DISTINCT FROM (NEW."user_name", NEW."email", NEW."role", NEW."token_version", NEW."disabled_at", NEW."password_hash")
)
EXECUTE FUNCTION "encore_announce_credentials_changed"();--> statement-breakpoint
CREATE TRIGGER "users_credentials_deleted" AFTER DELETE ON "users"
FOR EACH ROW EXECUTE FUNCTION "encore_announce_credentials_changed"();--> statement-breakpoint
CREATE TRIGGER "api_keys_credentials_changed" AFTER UPDATE OF "user_id", "key_hash" OR DELETE ON "api_keys"
FOR EACH ROW EXECUTE FUNCTION "encore_announce_credentials_changed"();--> statement-breakpoint
CREATE TRIGGER "app_passwords_credentials_changed" AFTER UPDATE OF "user_id", "ciphertext" OR DELETE ON "app_passwords"
FOR EACH ROW EXECUTE FUNCTION "encore_announce_credentials_changed"();
