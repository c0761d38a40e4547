CREATE TABLE "telegram_followers" (
	"order_id" uuid NOT NULL,
	"chat_id" bigint NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_followers_order_id_chat_id_pk" PRIMARY KEY("order_id","chat_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_link_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer,
	"order_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "telegram_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"chat_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_prompts" (
	"chat_id" bigint PRIMARY KEY NOT NULL,
	"tg_user_id" bigint NOT NULL,
	"order_id" uuid NOT NULL,
	"action" text NOT NULL,
	"stamp" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_staff" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"tg_user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"tg_name" text DEFAULT '' NOT NULL,
	"alerts" jsonb NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_staff_tg_user_id_unique" UNIQUE("tg_user_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_state" (
	"key" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone,
	"value" bigint
);
--> statement-breakpoint
CREATE TABLE "telegram_updates" (
	"update_id" bigint PRIMARY KEY NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_followers" ADD CONSTRAINT "telegram_followers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_codes" ADD CONSTRAINT "telegram_link_codes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_messages" ADD CONSTRAINT "telegram_messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_prompts" ADD CONSTRAINT "telegram_prompts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_staff" ADD CONSTRAINT "telegram_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_followers_chat_idx" ON "telegram_followers" USING btree ("chat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_messages_uq" ON "telegram_messages" USING btree ("order_id","chat_id","purpose");--> statement-breakpoint
CREATE INDEX "telegram_messages_order_idx" ON "telegram_messages" USING btree ("order_id");