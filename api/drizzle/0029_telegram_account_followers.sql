CREATE TABLE "telegram_account_followers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"tg_user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_account_followers" ADD CONSTRAINT "telegram_account_followers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_account_followers_chat_idx" ON "telegram_account_followers" USING btree ("chat_id");