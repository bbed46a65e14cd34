-- Users administration: two-factor flag, user types, impersonation tokens, custom attributes.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "two_factor_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "user_type" TEXT NOT NULL DEFAULT 'human';

-- AlterTable
ALTER TABLE "personal_access_tokens" ADD COLUMN     "impersonation" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "custom_attributes" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER,
    "namespace_id" INTEGER,
    "project_id" INTEGER,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "custom_attributes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "custom_attributes_user_id_key_key" ON "custom_attributes"("user_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "custom_attributes_namespace_id_key_key" ON "custom_attributes"("namespace_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "custom_attributes_project_id_key_key" ON "custom_attributes"("project_id", "key");

-- AddForeignKey
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_attributes" ADD CONSTRAINT "custom_attributes_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
