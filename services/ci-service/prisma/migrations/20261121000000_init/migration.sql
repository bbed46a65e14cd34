-- CreateTable
CREATE TABLE "ci_settings" (
    "project_id" INTEGER NOT NULL,
    "job_token_scope_enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ci_settings_pkey" PRIMARY KEY ("project_id")
);
