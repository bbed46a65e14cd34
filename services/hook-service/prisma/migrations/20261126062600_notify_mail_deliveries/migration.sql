-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_pipeline_refs" (
    "project_id" INTEGER NOT NULL,
    "ref" TEXT NOT NULL,
    "pipeline_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "previous_status" TEXT,

    CONSTRAINT "notification_pipeline_refs_pkey" PRIMARY KEY ("project_id","ref")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_deliveries_event_id_user_id_key" ON "notification_deliveries"("event_id", "user_id");
