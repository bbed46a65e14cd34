-- GitLab's project setting enforce_auth_checks_on_uploads (default true, as GitLab's).

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "enforce_auth_checks_on_uploads" BOOLEAN NOT NULL DEFAULT true;
