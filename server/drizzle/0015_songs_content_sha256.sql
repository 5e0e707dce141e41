ALTER TABLE "songs" ADD COLUMN "content_sha256" text;--> statement-breakpoint
CREATE INDEX "songs_content_sha256_idx" ON "songs" USING btree ("content_sha256");