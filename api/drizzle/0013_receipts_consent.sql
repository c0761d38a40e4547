CREATE TABLE "consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text,
	"user_id" integer,
	"order_id" uuid,
	"context" text NOT NULL,
	"given" boolean NOT NULL,
	"document_version" integer,
	"ip" text,
	"user_agent" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"payment_id" uuid,
	"refund_id" integer,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transport" text NOT NULL,
	"external_id" text NOT NULL,
	"email" text NOT NULL,
	"total" bigint NOT NULL,
	"items" jsonb NOT NULL,
	"seller" jsonb NOT NULL,
	"service_id" text,
	"fiscal" jsonb,
	"last_error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"registered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seller_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"legal_form" text DEFAULT '' NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"inn" text DEFAULT '' NOT NULL,
	"ogrn" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"extra" text DEFAULT '' NOT NULL,
	"tax_system" text DEFAULT 'usn_income' NOT NULL,
	"receipts_enabled" boolean DEFAULT false NOT NULL,
	"receipt_transport" text DEFAULT 'sandbox' NOT NULL,
	"item_rules" jsonb,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_email_idx" ON "consents" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "consents_order_idx" ON "consents" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_external_uq" ON "receipts" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_sell_uq" ON "receipts" USING btree ("payment_id") WHERE "receipts"."kind" = 'sell';--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_refund_uq" ON "receipts" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "receipts_order_idx" ON "receipts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "receipts_status_idx" ON "receipts" USING btree ("status");