CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"order_id" uuid,
	"user_id" integer,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_one_owner" CHECK (("uploads"."order_id" is null) <> ("uploads"."user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_order_uq" ON "uploads" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_user_uq" ON "uploads" USING btree ("user_id");