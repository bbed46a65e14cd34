-- Notification settings per user: global, per group and per project, with the custom event switches.

-- CreateTable
CREATE TABLE "notification_settings" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_id" INTEGER NOT NULL,
    "level" TEXT NOT NULL,
    "notification_email" TEXT,
    "new_release" BOOLEAN,
    "new_note" BOOLEAN,
    "new_issue" BOOLEAN,
    "reopen_issue" BOOLEAN,
    "close_issue" BOOLEAN,
    "reassign_issue" BOOLEAN,
    "issue_due" BOOLEAN,
    "new_merge_request" BOOLEAN,
    "push_to_merge_request" BOOLEAN,
    "reopen_merge_request" BOOLEAN,
    "close_merge_request" BOOLEAN,
    "reassign_merge_request" BOOLEAN,
    "change_reviewer_merge_request" BOOLEAN,
    "merge_merge_request" BOOLEAN,
    "failed_pipeline" BOOLEAN,
    "fixed_pipeline" BOOLEAN,
    "success_pipeline" BOOLEAN,
    "moved_project" BOOLEAN,
    "merge_when_pipeline_succeeds" BOOLEAN,
    "approver" BOOLEAN,
    "new_epic" BOOLEAN,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_settings_source_type_source_id_idx" ON "notification_settings"("source_type", "source_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_settings_user_id_source_type_source_id_key" ON "notification_settings"("user_id", "source_type", "source_id");

-- AddForeignKey
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
