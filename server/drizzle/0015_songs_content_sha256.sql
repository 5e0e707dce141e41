ALTER TABLE "songs" ADD COLUMN "content_sha256" text;--> statement-breakpoint
CREATE UNIQUE INDEX "songs_content_sha256_key" ON "songs" USING btree ("content_sha256");