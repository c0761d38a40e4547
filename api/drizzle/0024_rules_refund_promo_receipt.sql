ALTER TABLE "games" ADD COLUMN "auto_refund_hours" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "excluded_kinds" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "payment_method" text;