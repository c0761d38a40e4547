ALTER TABLE "uploads" DROP CONSTRAINT "uploads_one_owner";--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "game_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "gift_id" integer;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_gift_id_gifts_id_fk" FOREIGN KEY ("gift_id") REFERENCES "public"."gifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_game_uq" ON "uploads" USING btree ("game_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_gift_uq" ON "uploads" USING btree ("gift_id");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_one_owner" CHECK (num_nonnulls("uploads"."order_id", "uploads"."user_id", "uploads"."game_id", "uploads"."gift_id") = 1);