-- Project starring (GitLab's users_star_projects) and the star count kept beside each project.

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "star_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "users_star_projects" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_star_projects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "users_star_projects_project_id_idx" ON "users_star_projects"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_star_projects_user_id_project_id_key" ON "users_star_projects"("user_id", "project_id");

-- AddForeignKey
ALTER TABLE "users_star_projects" ADD CONSTRAINT "users_star_projects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users_star_projects" ADD CONSTRAINT "users_star_projects_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
