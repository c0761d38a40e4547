CREATE TABLE "article_versions" (
	"slug" text NOT NULL,
	"version" integer NOT NULL,
	"header" text NOT NULL,
	"text" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_versions_slug_version_pk" PRIMARY KEY("slug","version")
);
