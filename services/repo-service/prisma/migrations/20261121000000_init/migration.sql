-- CreateTable
CREATE TABLE "repositories" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "disk_path" TEXT NOT NULL,
    "default_branch" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "repositories_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "repositories_project_id_key" ON "repositories"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "repositories_disk_path_key" ON "repositories"("disk_path");
