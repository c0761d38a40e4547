CREATE TABLE "mail_log" (
	"key" text PRIMARY KEY NOT NULL,
	"template" text NOT NULL,
	"order_id" uuid,
	"message_id" text NOT NULL,
	"transport" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_log_order_idx" ON "mail_log" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "orders_email_idx" ON "orders" USING btree (lower("email"));