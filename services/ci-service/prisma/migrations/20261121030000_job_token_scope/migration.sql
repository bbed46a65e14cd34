-- CreateTable
CREATE TABLE "job_token_project_links" (
    "id" SERIAL NOT NULL,
    "source_project_id" INTEGER NOT NULL,
    "target_project_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_token_project_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_token_group_links" (
    "id" SERIAL NOT NULL,
    "source_project_id" INTEGER NOT NULL,
    "target_group_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_token_group_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "job_token_project_links_source_project_id_target_project_id_key" ON "job_token_project_links"("source_project_id", "target_project_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_token_group_links_source_project_id_target_group_id_key" ON "job_token_group_links"("source_project_id", "target_group_id");
