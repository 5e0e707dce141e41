CREATE TABLE "smart_playlist_presets" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "smart_playlists" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"comment" text,
	"rules" jsonb NOT NULL,
	"source" text DEFAULT 'user' NOT NULL,
	"folder_file" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "smart_playlist_presets" ADD CONSTRAINT "smart_playlist_presets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_playlists" ADD CONSTRAINT "smart_playlists_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "smart_playlists_owner_idx" ON "smart_playlists" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "smart_playlists_folder_file_key" ON "smart_playlists" USING btree ("folder_file");