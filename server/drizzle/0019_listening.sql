CREATE TABLE "now_playing" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"song_id" integer NOT NULL,
	"client" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "play_queues" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"song_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"current_song_id" integer,
	"position_ms" integer DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "song_plays" (
	"user_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"play_count" integer DEFAULT 0 NOT NULL,
	"last_played_at" timestamp with time zone NOT NULL,
	CONSTRAINT "song_plays_user_id_song_id_pk" PRIMARY KEY("user_id","song_id")
);
--> statement-breakpoint
CREATE TABLE "song_ratings" (
	"user_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"rating" integer NOT NULL,
	CONSTRAINT "song_ratings_user_id_song_id_pk" PRIMARY KEY("user_id","song_id"),
	CONSTRAINT "song_ratings_rating_check" CHECK ("song_ratings"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "now_playing" ADD CONSTRAINT "now_playing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "now_playing" ADD CONSTRAINT "now_playing_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_queues" ADD CONSTRAINT "play_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_plays" ADD CONSTRAINT "song_plays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_plays" ADD CONSTRAINT "song_plays_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_ratings" ADD CONSTRAINT "song_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_ratings" ADD CONSTRAINT "song_ratings_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "song_plays_song_idx" ON "song_plays" USING btree ("song_id");--> statement-breakpoint
CREATE INDEX "song_ratings_song_idx" ON "song_ratings" USING btree ("song_id");