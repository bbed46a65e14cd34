-- Group SSH certificates (GitLab's group_ssh_certificates): CA public keys of top-level groups.

-- CreateTable
CREATE TABLE "group_ssh_certificates" (
    "id" SERIAL NOT NULL,
    "namespace_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "group_ssh_certificates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "group_ssh_certificates_namespace_id_fingerprint_key" ON "group_ssh_certificates"("namespace_id", "fingerprint");

-- CreateIndex
CREATE INDEX "group_ssh_certificates_fingerprint_idx" ON "group_ssh_certificates"("fingerprint");

-- AddForeignKey
ALTER TABLE "group_ssh_certificates" ADD CONSTRAINT "group_ssh_certificates_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
