ALTER TABLE "gift_codes" ADD COLUMN "held_by" uuid;--> statement-breakpoint
ALTER TABLE "gift_codes" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "voucher_codes" ADD COLUMN "held_by" uuid;--> statement-breakpoint
ALTER TABLE "voucher_codes" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "gift_codes_held_idx" ON "gift_codes" USING btree ("held_by");--> statement-breakpoint
CREATE INDEX "voucher_codes_held_idx" ON "voucher_codes" USING btree ("held_by");