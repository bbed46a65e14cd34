-- CreateTable
CREATE TABLE "protected_branches" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "allow_force_push" BOOLEAN NOT NULL DEFAULT false,
    "code_owner_approval_required" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "protected_branches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "protected_branch_access_levels" (
    "id" SERIAL NOT NULL,
    "protected_branch_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "access_level" INTEGER NOT NULL,

    CONSTRAINT "protected_branch_access_levels_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "protected_branches_project_id_name_key" ON "protected_branches"("project_id", "name");

-- CreateIndex
CREATE INDEX "protected_branch_access_levels_protected_branch_id_idx" ON "protected_branch_access_levels"("protected_branch_id");

-- AddForeignKey
ALTER TABLE "protected_branch_access_levels" ADD CONSTRAINT "protected_branch_access_levels_protected_branch_id_fkey" FOREIGN KEY ("protected_branch_id") REFERENCES "protected_branches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
