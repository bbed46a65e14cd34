-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "published_status" TEXT;

-- AlterTable
ALTER TABLE "pipelines" ADD COLUMN     "merge_request" JSONB,
ADD COLUMN     "merge_request_iid" INTEGER,
ADD COLUMN     "published_status" TEXT;

-- CreateTable
CREATE TABLE "environments" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "external_url" TEXT,
    "state" TEXT NOT NULL DEFAULT 'available',
    "tier" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deployment_counters" (
    "project_id" INTEGER NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "deployment_counters_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "deployments" (
    "id" SERIAL NOT NULL,
    "iid" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "environment_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "pipeline_id" INTEGER NOT NULL,
    "ref" TEXT NOT NULL,
    "tag" BOOLEAN NOT NULL DEFAULT false,
    "sha" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pipelines_project_id_merge_request_iid_idx" ON "pipelines"("project_id", "merge_request_iid");

-- CreateIndex
CREATE UNIQUE INDEX "environments_project_id_name_key" ON "environments"("project_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "deployments_job_id_key" ON "deployments"("job_id");

-- CreateIndex
CREATE INDEX "deployments_environment_id_id_idx" ON "deployments"("environment_id", "id");

-- CreateIndex
CREATE INDEX "deployments_project_id_updated_at_idx" ON "deployments"("project_id", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "deployments_project_id_iid_key" ON "deployments"("project_id", "iid");

-- AddForeignKey
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
