-- CreateTable
CREATE TABLE "milestones" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER,
    "group_id" INTEGER,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" TEXT NOT NULL DEFAULT 'active',
    "due_date" DATE,
    "start_date" DATE,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "milestones_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "milestones_one_parent" CHECK (("project_id" IS NULL) <> ("group_id" IS NULL))
);

-- CreateTable
CREATE TABLE "milestone_iids" (
    "parent" TEXT NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "milestone_iids_pkey" PRIMARY KEY ("parent")
);

-- CreateIndex
CREATE UNIQUE INDEX "milestones_project_id_iid_key" ON "milestones"("project_id", "iid");

-- CreateIndex
CREATE UNIQUE INDEX "milestones_group_id_iid_key" ON "milestones"("group_id", "iid");
