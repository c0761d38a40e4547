CREATE TABLE "reconciliation_differences" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"order_id" uuid,
	"payment_id" uuid,
	"refund_id" integer,
	"external_id" text,
	"provider_amount" bigint,
	"provider_currency" text,
	"shop_amount" bigint,
	"shop_currency" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"explained_at" timestamp with time zone,
	"explained_by" integer,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_differences" ADD CONSTRAINT "reconciliation_differences_explained_by_users_id_fk" FOREIGN KEY ("explained_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_differences_key_uq" ON "reconciliation_differences" USING btree ("key");--> statement-breakpoint
CREATE INDEX "reconciliation_differences_status_idx" ON "reconciliation_differences" USING btree ("status","detected_at");