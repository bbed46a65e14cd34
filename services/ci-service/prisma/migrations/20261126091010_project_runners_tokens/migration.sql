-- Project runner registration tokens (GitLab's projects.runners_token), sealed and digested.

-- CreateTable
CREATE TABLE "project_runners_tokens" (
    "project_id" INTEGER NOT NULL,
    "token_sealed" BYTEA NOT NULL,
    "token_digest" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_runners_tokens_pkey" PRIMARY KEY ("project_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "project_runners_tokens_token_digest_key" ON "project_runners_tokens"("token_digest");
