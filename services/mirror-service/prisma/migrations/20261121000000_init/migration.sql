-- CreateTable
CREATE TABLE "remote_mirrors" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "only_protected_branches" BOOLEAN NOT NULL DEFAULT false,
    "keep_divergent_refs" BOOLEAN NOT NULL DEFAULT false,
    "mirror_branch_regex" TEXT,
    "auth_method" TEXT NOT NULL DEFAULT 'password',
    "update_status" TEXT NOT NULL DEFAULT 'none',
    "last_error" TEXT,
    "last_update_at" TIMESTAMP(3),
    "last_update_started_at" TIMESTAMP(3),
    "last_successful_update_at" TIMESTAMP(3),
    "encrypted_credentials" BYTEA,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "remote_mirrors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "remote_mirrors_project_id_idx" ON "remote_mirrors"("project_id");
