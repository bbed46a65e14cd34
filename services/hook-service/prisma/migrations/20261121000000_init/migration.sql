-- CreateTable
CREATE TABLE "recorded_events" (
    "id" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recorded_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "recorded_events_event_id_key" ON "recorded_events"("event_id");

-- CreateIndex
CREATE INDEX "recorded_events_event_name_id_idx" ON "recorded_events"("event_name", "id");
