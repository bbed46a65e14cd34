-- CreateTable
CREATE TABLE "error_tracking_settings" (
    "project_id" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "integrated" BOOLEAN NOT NULL DEFAULT false,
    "project_name" TEXT,
    "tracker_external_url" TEXT,
    "api_url" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "error_tracking_settings_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "error_tracking_client_keys" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "public_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "error_tracking_client_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "error_tracking_errors" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "event_count" INTEGER NOT NULL DEFAULT 0,
    "first_seen_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unresolved',

    CONSTRAINT "error_tracking_errors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "error_tracking_error_events" (
    "id" SERIAL NOT NULL,
    "error_id" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "error_tracking_error_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "error_tracking_client_keys_public_key_key" ON "error_tracking_client_keys"("public_key");

-- CreateIndex
CREATE INDEX "error_tracking_client_keys_project_id_idx" ON "error_tracking_client_keys"("project_id");

-- CreateIndex
CREATE INDEX "error_tracking_errors_project_id_last_seen_at_idx" ON "error_tracking_errors"("project_id", "last_seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "error_tracking_errors_project_id_fingerprint_key" ON "error_tracking_errors"("project_id", "fingerprint");

-- CreateIndex
CREATE INDEX "error_tracking_error_events_error_id_occurred_at_idx" ON "error_tracking_error_events"("error_id", "occurred_at");

-- AddForeignKey
ALTER TABLE "error_tracking_error_events" ADD CONSTRAINT "error_tracking_error_events_error_id_fkey" FOREIGN KEY ("error_id") REFERENCES "error_tracking_errors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
