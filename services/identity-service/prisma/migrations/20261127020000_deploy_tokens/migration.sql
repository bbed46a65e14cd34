-- Deploy tokens (GitLab's deploy_tokens, project_deploy_tokens, group_deploy_tokens).

-- CreateTable
CREATE TABLE "deploy_tokens" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "username" TEXT,
    "token_digest" TEXT NOT NULL,
    "scopes" TEXT[],
    "deploy_token_type" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "creator_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "deploy_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_deploy_tokens" (
    "id" SERIAL NOT NULL,
    "deploy_token_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_deploy_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_deploy_tokens" (
    "id" SERIAL NOT NULL,
    "deploy_token_id" INTEGER NOT NULL,
    "group_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_deploy_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deploy_tokens_token_digest_key" ON "deploy_tokens"("token_digest");

-- CreateIndex
CREATE UNIQUE INDEX "project_deploy_tokens_deploy_token_id_key" ON "project_deploy_tokens"("deploy_token_id");

-- CreateIndex
CREATE INDEX "project_deploy_tokens_project_id_idx" ON "project_deploy_tokens"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "group_deploy_tokens_deploy_token_id_key" ON "group_deploy_tokens"("deploy_token_id");

-- CreateIndex
CREATE INDEX "group_deploy_tokens_group_id_idx" ON "group_deploy_tokens"("group_id");

-- AddForeignKey
ALTER TABLE "project_deploy_tokens" ADD CONSTRAINT "project_deploy_tokens_deploy_token_id_fkey" FOREIGN KEY ("deploy_token_id") REFERENCES "deploy_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_deploy_tokens" ADD CONSTRAINT "group_deploy_tokens_deploy_token_id_fkey" FOREIGN KEY ("deploy_token_id") REFERENCES "deploy_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A link goes with its project or group (the models carry no relation to them: the Project and
-- Namespace models stay as they are).
ALTER TABLE "project_deploy_tokens" ADD CONSTRAINT "project_deploy_tokens_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "group_deploy_tokens" ADD CONSTRAINT "group_deploy_tokens_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
