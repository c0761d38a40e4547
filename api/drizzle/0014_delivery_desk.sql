ALTER TABLE "games" ALTER COLUMN "supplier" SET DEFAULT 'manual';--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "delivery_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "gift_codes" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "listing_price" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "skin_listed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "awaiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "taken_by" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "taken_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "steam_settings" ADD COLUMN "currency" text DEFAULT 'RUB' NOT NULL;--> statement-breakpoint
ALTER TABLE "voucher_codes" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_taken_by_users_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_awaiting_idx" ON "orders" USING btree ("awaiting_since") WHERE "orders"."status" = 'sent' and "orders"."awaiting_since" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_open_listing_price_uq" ON "orders" USING btree ("listing_price") WHERE "orders"."surplus" is not null and "orders"."status" not in ('done', 'failed');