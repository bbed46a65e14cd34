-- AlterTable
ALTER TABLE "remote_mirrors" ADD COLUMN "disk_path" TEXT NOT NULL DEFAULT '',
ADD COLUMN "ssh_public_key" TEXT,
ADD COLUMN "ssh_known_hosts" TEXT,
ADD COLUMN "host_key_fingerprints" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "sync_again" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "sync_token" TEXT,
ADD COLUMN "lease_expires_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "remote_mirrors_update_status_idx" ON "remote_mirrors"("update_status");
