-- CreateTable
CREATE TABLE "issues" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'opened',
    "confidential" BOOLEAN NOT NULL DEFAULT false,
    "discussion_locked" BOOLEAN,
    "issue_type" TEXT NOT NULL DEFAULT 'issue',
    "author_id" INTEGER NOT NULL,
    "milestone_id" INTEGER,
    "due_date" DATE,
    "closed_at" TIMESTAMP(3),
    "closed_by_id" INTEGER,
    "updated_by_id" INTEGER,
    "time_estimate" INTEGER NOT NULL DEFAULT 0,
    "total_time_spent" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "issues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_assignees" (
    "issue_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "issue_assignees_pkey" PRIMARY KEY ("issue_id","user_id")
);

-- CreateTable
CREATE TABLE "issue_labels" (
    "issue_id" INTEGER NOT NULL,
    "label_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_labels_pkey" PRIMARY KEY ("issue_id","label_id")
);

-- CreateTable
CREATE TABLE "issue_iids" (
    "project_id" INTEGER NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "issue_iids_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "notes" (
    "id" SERIAL NOT NULL,
    "noteable_type" TEXT NOT NULL,
    "noteable_id" INTEGER NOT NULL,
    "project_id" INTEGER,
    "author_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT,
    "discussion_id" TEXT NOT NULL,
    "updated_by_id" INTEGER,
    "last_edited_at" TIMESTAMP(3),
    "resolved_at" TIMESTAMP(3),
    "resolved_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "award_emoji" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "awardable_type" TEXT NOT NULL,
    "awardable_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "award_emoji_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resource_label_events" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER,
    "merge_request_id" INTEGER,
    "label_id" INTEGER,
    "action" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resource_label_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resource_state_events" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER,
    "merge_request_id" INTEGER,
    "state" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resource_state_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resource_milestone_events" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER,
    "merge_request_id" INTEGER,
    "milestone_id" INTEGER,
    "action" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resource_milestone_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "issues_project_id_iid_key" ON "issues"("project_id", "iid");

-- CreateIndex
CREATE INDEX "issues_project_id_state_idx" ON "issues"("project_id", "state");

-- CreateIndex
CREATE INDEX "issues_author_id_idx" ON "issues"("author_id");

-- CreateIndex
CREATE INDEX "issues_milestone_id_idx" ON "issues"("milestone_id");

-- CreateIndex
CREATE INDEX "issue_assignees_user_id_idx" ON "issue_assignees"("user_id");

-- CreateIndex
CREATE INDEX "issue_labels_label_id_idx" ON "issue_labels"("label_id");

-- CreateIndex
CREATE INDEX "notes_noteable_type_noteable_id_created_at_idx" ON "notes"("noteable_type", "noteable_id", "created_at");

-- CreateIndex
CREATE INDEX "notes_project_id_idx" ON "notes"("project_id");

-- CreateIndex
CREATE INDEX "notes_author_id_created_at_idx" ON "notes"("author_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "award_emoji_awardable_type_awardable_id_user_id_name_key" ON "award_emoji"("awardable_type", "awardable_id", "user_id", "name");

-- CreateIndex
CREATE INDEX "award_emoji_user_id_name_idx" ON "award_emoji"("user_id", "name");

-- CreateIndex
CREATE INDEX "resource_label_events_issue_id_idx" ON "resource_label_events"("issue_id");

-- CreateIndex
CREATE INDEX "resource_label_events_merge_request_id_idx" ON "resource_label_events"("merge_request_id");

-- CreateIndex
CREATE INDEX "resource_state_events_issue_id_idx" ON "resource_state_events"("issue_id");

-- CreateIndex
CREATE INDEX "resource_state_events_merge_request_id_idx" ON "resource_state_events"("merge_request_id");

-- CreateIndex
CREATE INDEX "resource_milestone_events_issue_id_idx" ON "resource_milestone_events"("issue_id");

-- CreateIndex
CREATE INDEX "resource_milestone_events_merge_request_id_idx" ON "resource_milestone_events"("merge_request_id");

-- AddForeignKey
ALTER TABLE "issues" ADD CONSTRAINT "issues_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_assignees" ADD CONSTRAINT "issue_assignees_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_labels" ADD CONSTRAINT "issue_labels_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_labels" ADD CONSTRAINT "issue_labels_label_id_fkey" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
