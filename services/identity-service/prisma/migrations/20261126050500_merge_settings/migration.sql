-- A project's merge request settings (GitLab's project attributes of the same names), with
-- GitLab's defaults so existing projects behave as GitLab's do.

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "merge_method" TEXT NOT NULL DEFAULT 'merge',
ADD COLUMN     "only_allow_merge_if_pipeline_succeeds" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "allow_merge_on_skipped_pipeline" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "only_allow_merge_if_all_discussions_are_resolved" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "remove_source_branch_after_merge" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "squash_option" TEXT NOT NULL DEFAULT 'default_off',
ADD COLUMN     "reset_approvals_on_push" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "merge_commit_template" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "squash_commit_template" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "approvals_before_merge" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "autoclose_referenced_issues" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "merge_requests_author_approval" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "merge_requests_disable_committers_approval" BOOLEAN NOT NULL DEFAULT false;
