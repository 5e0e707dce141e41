CREATE TABLE "clips" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"song_id" integer,
	"song_title" text,
	"task_id" text,
	"settings" jsonb NOT NULL,
	"media_kind" text NOT NULL,
	"media_keys" jsonb NOT NULL,
	"format" text NOT NULL,
	"quality" text NOT NULL,
	"aspect_ratio" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"video_key" text,
	"size_bytes" bigint,
	"duration_seconds" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "clips" ADD CONSTRAINT "clips_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clips" ADD CONSTRAINT "clips_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clips_owner_created_idx" ON "clips" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "clips_task_key" ON "clips" USING btree ("task_id");