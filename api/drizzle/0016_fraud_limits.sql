CREATE TABLE "block_list" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"note" text,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_views" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "code_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"place" text NOT NULL,
	"client_address" text NOT NULL,
	"user_agent" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_reviews" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"rules" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	"reason" text,
	"staff_mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "risk_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_hash" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_country" text;--> statement-breakpoint
ALTER TABLE "code_views" ADD CONSTRAINT "code_views_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_reviews" ADD CONSTRAINT "order_reviews_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_reviews" ADD CONSTRAINT "order_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "block_list_uq" ON "block_list" USING btree ("kind","value");--> statement-breakpoint
CREATE INDEX "code_views_order_idx" ON "code_views" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_reviews_status_idx" ON "order_reviews" USING btree ("status","created");--> statement-breakpoint
CREATE INDEX "payments_card_idx" ON "payments" USING btree ("card_hash");