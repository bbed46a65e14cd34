-- Avatars (GitLab's Avatarable): the file name in the avatar's URL, the object-store key of its
-- bytes and its media type; all three set together, or all NULL when there is no avatar.

-- AlterTable
ALTER TABLE "users" ADD COLUMN "avatar" TEXT,
ADD COLUMN "avatar_key" TEXT,
ADD COLUMN "avatar_content_type" TEXT;

-- AlterTable
ALTER TABLE "namespaces" ADD COLUMN "avatar" TEXT,
ADD COLUMN "avatar_key" TEXT,
ADD COLUMN "avatar_content_type" TEXT;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN "avatar" TEXT,
ADD COLUMN "avatar_key" TEXT,
ADD COLUMN "avatar_content_type" TEXT;
