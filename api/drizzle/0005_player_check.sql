CREATE TABLE "player_checks" (
	"key" text PRIMARY KEY NOT NULL,
	"outcome" text NOT NULL,
	"nickname" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "player_check" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "player_check_ref" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "player_nickname" text;--> statement-breakpoint
CREATE INDEX "player_checks_expires_idx" ON "player_checks" USING btree ("expires_at");