CREATE TABLE "bookmarks" (
	"user_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"position_ms" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookmarks_user_id_song_id_pk" PRIMARY KEY("user_id","song_id")
);
--> statement-breakpoint
CREATE TABLE "radio_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"stream_url" text NOT NULL,
	"homepage_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "play_queues" ADD COLUMN "current_index" integer;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "sealed_token" text;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "visit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "last_visited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookmarks_song_idx" ON "bookmarks" USING btree ("song_id");