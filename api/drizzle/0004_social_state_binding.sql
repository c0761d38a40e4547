ALTER TABLE "oauth_states" ADD COLUMN "nonce_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "mode" text DEFAULT 'auth' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;