-- CreateTable
CREATE TABLE "runners" (
    "id" SERIAL NOT NULL,
    "token_digest" TEXT NOT NULL,
    "runner_type" TEXT NOT NULL,
    "project_id" INTEGER,
    "group_id" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "maintenance_note" TEXT NOT NULL DEFAULT '',
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "run_untagged" BOOLEAN NOT NULL DEFAULT true,
    "tag_list" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "access_level" TEXT NOT NULL DEFAULT 'not_protected',
    "maximum_timeout" INTEGER,
    "created_by_user_id" INTEGER,
    "contacted_at" TIMESTAMP(3),
    "system_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "runners_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "runners_token_digest_key" ON "runners"("token_digest");
