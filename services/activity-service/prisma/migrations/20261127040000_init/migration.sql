-- CreateTable
CREATE TABLE "audit_events" (
    "id" SERIAL NOT NULL,
    "source_event_id" TEXT NOT NULL,
    "author_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "entity_type" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "details" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_source_event_id_key" ON "audit_events"("source_event_id");

-- CreateIndex
CREATE INDEX "audit_events_entity_type_entity_id_id_idx" ON "audit_events"("entity_type", "entity_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_author_id_id_idx" ON "audit_events"("author_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");
