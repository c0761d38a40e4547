ALTER TABLE "uploads" DROP CONSTRAINT "uploads_one_owner";--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "tagline" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "shop" boolean;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_shop_uq" ON "uploads" USING btree ("shop");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_shop_true" CHECK ("uploads"."shop" is null or "uploads"."shop");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_one_owner" CHECK (num_nonnulls("uploads"."order_id", "uploads"."user_id", "uploads"."game_id", "uploads"."gift_id", "uploads"."payment_method_id", "uploads"."shop") = 1);