-- SSH keys (GitLab's keys table: users' keys, type "Key", and deploy keys, type "DeployKey") and
-- the projects a deploy key is enabled in (GitLab's deploy_keys_projects).

-- CreateTable
CREATE TABLE "keys" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER,
    "type" TEXT NOT NULL DEFAULT 'Key',
    "title" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "key_type" TEXT NOT NULL,
    "fingerprint_md5" TEXT NOT NULL,
    "fingerprint_sha256" TEXT NOT NULL,
    "usage_type" TEXT NOT NULL DEFAULT 'auth_and_signing',
    "created_by_id" INTEGER,
    "expires_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deploy_keys_projects" (
    "id" SERIAL NOT NULL,
    "deploy_key_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "can_push" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "deploy_keys_projects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "keys_fingerprint_sha256_key" ON "keys"("fingerprint_sha256");

-- CreateIndex
CREATE INDEX "keys_user_id_idx" ON "keys"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "deploy_keys_projects_deploy_key_id_project_id_key" ON "deploy_keys_projects"("deploy_key_id", "project_id");

-- CreateIndex
CREATE INDEX "deploy_keys_projects_project_id_idx" ON "deploy_keys_projects"("project_id");

-- AddForeignKey
ALTER TABLE "keys" ADD CONSTRAINT "keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deploy_keys_projects" ADD CONSTRAINT "deploy_keys_projects_deploy_key_id_fkey" FOREIGN KEY ("deploy_key_id") REFERENCES "keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deploy_keys_projects" ADD CONSTRAINT "deploy_keys_projects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
