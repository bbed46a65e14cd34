-- CreateTable
CREATE TABLE "snippets" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER,
    "author_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "visibility" TEXT NOT NULL,
    "file_name" TEXT,
    "disk_path" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "snippets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "snippets_project_id_id_idx" ON "snippets"("project_id", "id");

-- CreateIndex
CREATE INDEX "snippets_author_id_id_idx" ON "snippets"("author_id", "id");

-- CreateIndex
CREATE INDEX "snippets_visibility_id_idx" ON "snippets"("visibility", "id");
