-- GitLab's contribution events (the Events API), their push payloads and wiki page metas.
CREATE TABLE "events" (
    "id" SERIAL NOT NULL,
    "source_event_id" TEXT NOT NULL,
    "project_id" INTEGER NOT NULL,
    "author_id" INTEGER NOT NULL,
    "action" INTEGER NOT NULL,
    "target_id" INTEGER,
    "target_iid" INTEGER,
    "target_type" TEXT,
    "target_title" TEXT,
    "confidential" BOOLEAN NOT NULL DEFAULT false,
    "confidential_reader_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "data" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "events_source_event_id_key" ON "events"("source_event_id");
CREATE INDEX "events_author_id_id_idx" ON "events"("author_id", "id");
CREATE INDEX "events_project_id_id_idx" ON "events"("project_id", "id");
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

CREATE TABLE "push_event_payloads" (
    "event_id" INTEGER NOT NULL,
    "commit_count" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "ref_type" TEXT NOT NULL,
    "commit_from" TEXT,
    "commit_to" TEXT,
    "ref" TEXT NOT NULL,
    "commit_title" TEXT,
    "ref_count" INTEGER,

    CONSTRAINT "push_event_payloads_pkey" PRIMARY KEY ("event_id")
);

ALTER TABLE "push_event_payloads" ADD CONSTRAINT "push_event_payloads_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "wiki_page_meta" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wiki_page_meta_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "wiki_page_meta_project_id_slug_key" ON "wiki_page_meta"("project_id", "slug");
