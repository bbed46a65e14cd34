-- CreateTable
CREATE TABLE "merge_requests" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "source_project_id" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'opened',
    "source_branch" TEXT NOT NULL,
    "target_branch" TEXT NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "author_id" INTEGER NOT NULL,
    "milestone_id" INTEGER,
    "discussion_locked" BOOLEAN,
    "squash" BOOLEAN NOT NULL DEFAULT false,
    "force_remove_source_branch" BOOLEAN NOT NULL DEFAULT false,
    "should_remove_source_branch" BOOLEAN,
    "allow_collaboration" BOOLEAN NOT NULL DEFAULT false,
    "merge_status" TEXT NOT NULL DEFAULT 'unchecked',
    "head_sha" TEXT,
    "merge_commit_sha" TEXT,
    "squash_commit_sha" TEXT,
    "merged_commit_sha" TEXT,
    "merge_error" TEXT,
    "merge_user_id" INTEGER,
    "merged_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "closed_by_id" INTEGER,
    "updated_by_id" INTEGER,
    "last_edited_at" TIMESTAMP(3),
    "last_edited_by_id" INTEGER,
    "merge_when_pipeline_succeeds" BOOLEAN NOT NULL DEFAULT false,
    "auto_merge_sha" TEXT,
    "auto_merge_params" JSONB,
    "prepared_at" TIMESTAMP(3),
    "merge_after" TIMESTAMP(3),
    "time_estimate" INTEGER NOT NULL DEFAULT 0,
    "total_time_spent" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "merge_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merge_request_iids" (
    "project_id" INTEGER NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "merge_request_iids_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "merge_request_assignees" (
    "merge_request_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_assignees_pkey" PRIMARY KEY ("merge_request_id","user_id")
);

-- CreateTable
CREATE TABLE "merge_request_reviewers" (
    "merge_request_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'unreviewed',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_reviewers_pkey" PRIMARY KEY ("merge_request_id","user_id")
);

-- CreateTable
CREATE TABLE "merge_request_labels" (
    "merge_request_id" INTEGER NOT NULL,
    "label_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_labels_pkey" PRIMARY KEY ("merge_request_id","label_id")
);

-- CreateTable
CREATE TABLE "merge_request_diffs" (
    "id" SERIAL NOT NULL,
    "merge_request_id" INTEGER NOT NULL,
    "head_commit_sha" TEXT NOT NULL,
    "base_commit_sha" TEXT NOT NULL,
    "start_commit_sha" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'collected',
    "real_size" TEXT,
    "commit_shas" TEXT[],
    "patch_id_sha" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_diffs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merge_request_approvals" (
    "merge_request_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "sha" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_approvals_pkey" PRIMARY KEY ("merge_request_id","user_id")
);

-- CreateTable
CREATE TABLE "merge_request_context_commits" (
    "id" SERIAL NOT NULL,
    "merge_request_id" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "relative_order" INTEGER NOT NULL DEFAULT 0,
    "author_name" TEXT NOT NULL,
    "author_email" TEXT NOT NULL,
    "authored_date" TIMESTAMP(3) NOT NULL,
    "committer_name" TEXT NOT NULL,
    "committer_email" TEXT NOT NULL,
    "committed_date" TIMESTAMP(3) NOT NULL,
    "message" TEXT NOT NULL,
    "parent_ids" TEXT[],
    "trailers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_context_commits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "merge_requests_project_id_state_idx" ON "merge_requests"("project_id", "state");

-- CreateIndex
CREATE INDEX "merge_requests_project_id_source_branch_idx" ON "merge_requests"("project_id", "source_branch");

-- CreateIndex
CREATE INDEX "merge_requests_project_id_target_branch_idx" ON "merge_requests"("project_id", "target_branch");

-- CreateIndex
CREATE INDEX "merge_requests_author_id_idx" ON "merge_requests"("author_id");

-- CreateIndex
CREATE INDEX "merge_requests_milestone_id_idx" ON "merge_requests"("milestone_id");

-- CreateIndex
CREATE INDEX "merge_requests_merge_user_id_idx" ON "merge_requests"("merge_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "merge_requests_project_id_iid_key" ON "merge_requests"("project_id", "iid");

-- CreateIndex
CREATE INDEX "merge_request_assignees_user_id_idx" ON "merge_request_assignees"("user_id");

-- CreateIndex
CREATE INDEX "merge_request_reviewers_user_id_idx" ON "merge_request_reviewers"("user_id");

-- CreateIndex
CREATE INDEX "merge_request_labels_label_id_idx" ON "merge_request_labels"("label_id");

-- CreateIndex
CREATE INDEX "merge_request_diffs_merge_request_id_id_idx" ON "merge_request_diffs"("merge_request_id", "id");

-- CreateIndex
CREATE INDEX "merge_request_diffs_head_commit_sha_idx" ON "merge_request_diffs"("head_commit_sha");

-- CreateIndex
CREATE INDEX "merge_request_approvals_user_id_idx" ON "merge_request_approvals"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "merge_request_context_commits_merge_request_id_sha_key" ON "merge_request_context_commits"("merge_request_id", "sha");

-- AddForeignKey
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_labels" ADD CONSTRAINT "merge_request_labels_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_labels" ADD CONSTRAINT "merge_request_labels_label_id_fkey" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_diffs" ADD CONSTRAINT "merge_request_diffs_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_approvals" ADD CONSTRAINT "merge_request_approvals_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_context_commits" ADD CONSTRAINT "merge_request_context_commits_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "ci_pipelines" (
    "id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ci_pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ci_pipelines_project_id_sha_idx" ON "ci_pipelines"("project_id", "sha");
