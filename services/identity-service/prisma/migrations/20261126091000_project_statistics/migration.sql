-- Project storage statistics (GitLab's project_statistics), refreshed from bus events.

-- CreateTable
CREATE TABLE "project_statistics" (
    "project_id" INTEGER NOT NULL,
    "commit_count" BIGINT NOT NULL DEFAULT 0,
    "repository_size" BIGINT NOT NULL DEFAULT 0,
    "wiki_size" BIGINT NOT NULL DEFAULT 0,
    "job_artifacts_size" BIGINT NOT NULL DEFAULT 0,
    "uploads_size" BIGINT NOT NULL DEFAULT 0,
    "repository_measured_at" TIMESTAMP(3),
    "artifacts_measured_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "project_statistics_pkey" PRIMARY KEY ("project_id")
);

-- AddForeignKey
ALTER TABLE "project_statistics" ADD CONSTRAINT "project_statistics_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
