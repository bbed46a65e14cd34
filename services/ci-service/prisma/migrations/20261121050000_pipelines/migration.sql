-- CreateTable
CREATE TABLE "runner_managers" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER NOT NULL,
    "system_id" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "revision" TEXT NOT NULL DEFAULT '',
    "platform" TEXT NOT NULL DEFAULT '',
    "architecture" TEXT NOT NULL DEFAULT '',
    "executor" TEXT NOT NULL DEFAULT '',
    "ip_address" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "contacted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runner_managers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pipeline_counters" (
    "project_id" INTEGER NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "pipeline_counters_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "pipelines" (
    "id" SERIAL NOT NULL,
    "iid" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "project_path" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "tag" BOOLEAN NOT NULL DEFAULT false,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "sha" TEXT NOT NULL,
    "before_sha" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000',
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "warnings" BOOLEAN NOT NULL DEFAULT false,
    "yaml_errors" TEXT,
    "name" TEXT,
    "user_id" INTEGER NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '[]',
    "trigger_event_id" TEXT,
    "parent_pipeline_id" INTEGER,
    "parent_job_id" INTEGER,
    "commit_title" TEXT NOT NULL DEFAULT '',
    "commit_message" TEXT NOT NULL DEFAULT '',
    "commit_author_name" TEXT NOT NULL DEFAULT '',
    "commit_author_email" TEXT NOT NULL DEFAULT '',
    "committed_at" TIMESTAMP(3),
    "default_branch" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" SERIAL NOT NULL,
    "pipeline_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'build',
    "name" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "stage_idx" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "when" TEXT NOT NULL DEFAULT 'on_success',
    "allow_failure" BOOLEAN NOT NULL DEFAULT false,
    "allow_failure_exit_codes" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "needs" JSONB,
    "retried" BOOLEAN NOT NULL DEFAULT false,
    "retry_of_id" INTEGER,
    "retry_count" INTEGER NOT NULL DEFAULT 0,
    "enqueue_immediately" BOOLEAN NOT NULL DEFAULT false,
    "options" JSONB NOT NULL DEFAULT '{}',
    "variables" JSONB NOT NULL DEFAULT '{}',
    "tag_list" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "timeout" INTEGER,
    "failure_reason" TEXT,
    "exit_code" INTEGER,
    "token_digest" TEXT,
    "runner_id" INTEGER,
    "runner_manager_id" INTEGER,
    "user_id" INTEGER NOT NULL,
    "coverage" DOUBLE PRECISION,
    "trace_length" INTEGER NOT NULL DEFAULT 0,
    "downstream_pipeline_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "queued_at" TIMESTAMP(3),
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "erased_at" TIMESTAMP(3),
    "last_runner_contact_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_artifacts" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "file_type" TEXT NOT NULL,
    "file_format" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "file_sha256" TEXT,
    "object_key" TEXT NOT NULL,
    "expire_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_trace_chunks" (
    "job_id" INTEGER NOT NULL,
    "offset" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "job_trace_chunks_pkey" PRIMARY KEY ("job_id","offset")
);

-- CreateIndex
CREATE UNIQUE INDEX "runner_managers_runner_id_system_id_key" ON "runner_managers"("runner_id", "system_id");

-- CreateIndex
CREATE UNIQUE INDEX "pipelines_trigger_event_id_key" ON "pipelines"("trigger_event_id");

-- CreateIndex
CREATE INDEX "pipelines_project_id_ref_status_idx" ON "pipelines"("project_id", "ref", "status");

-- CreateIndex
CREATE INDEX "pipelines_project_id_sha_idx" ON "pipelines"("project_id", "sha");

-- CreateIndex
CREATE INDEX "pipelines_parent_pipeline_id_idx" ON "pipelines"("parent_pipeline_id");

-- CreateIndex
CREATE UNIQUE INDEX "pipelines_project_id_iid_key" ON "pipelines"("project_id", "iid");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_token_digest_key" ON "jobs"("token_digest");

-- CreateIndex
CREATE INDEX "jobs_project_id_id_idx" ON "jobs"("project_id", "id");

-- CreateIndex
CREATE INDEX "jobs_pipeline_id_idx" ON "jobs"("pipeline_id");

-- CreateIndex
CREATE INDEX "jobs_status_type_id_idx" ON "jobs"("status", "type", "id");

-- CreateIndex
CREATE INDEX "job_artifacts_expire_at_idx" ON "job_artifacts"("expire_at");

-- CreateIndex
CREATE INDEX "job_artifacts_project_id_idx" ON "job_artifacts"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_artifacts_job_id_file_type_key" ON "job_artifacts"("job_id", "file_type");

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_artifacts" ADD CONSTRAINT "job_artifacts_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
