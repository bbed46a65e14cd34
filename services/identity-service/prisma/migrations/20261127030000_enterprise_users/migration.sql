-- Enterprise users (claimed by a top-level group), verified domains, and two-factor hardening
-- (sealed TOTP secret, the last consumed time step, recovery code digests).

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "enterprise_group_id" INTEGER,
ADD COLUMN     "enterprise_group_associated_at" TIMESTAMP(3),
ADD COLUMN     "otp_secret_sealed" BYTEA,
ADD COLUMN     "consumed_timestep" INTEGER,
ADD COLUMN     "otp_backup_codes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "users_enterprise_group_id_idx" ON "users"("enterprise_group_id");

-- AddForeignKey: a deleted group releases its enterprise users.
ALTER TABLE "users" ADD CONSTRAINT "users_enterprise_group_id_fkey" FOREIGN KEY ("enterprise_group_id") REFERENCES "namespaces"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "verified_domains" (
    "id" SERIAL NOT NULL,
    "namespace_id" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "verification_code" TEXT NOT NULL,
    "verified_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verified_domains_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "verified_domains_domain_key" ON "verified_domains"("domain");

-- CreateIndex
CREATE INDEX "verified_domains_namespace_id_idx" ON "verified_domains"("namespace_id");

-- AddForeignKey
ALTER TABLE "verified_domains" ADD CONSTRAINT "verified_domains_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
