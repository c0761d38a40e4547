ALTER TABLE "orders" ADD COLUMN "listing_held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "client_network" text;