-- Group runner registration tokens (GitLab's namespaces.runners_token), sealed and digested.

-- CreateTable
CREATE TABLE "group_runners_tokens" (
    "group_id" INTEGER NOT NULL,
    "token_sealed" BYTEA NOT NULL,
    "token_digest" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_runners_tokens_pkey" PRIMARY KEY ("group_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "group_runners_tokens_token_digest_key" ON "group_runners_tokens"("token_digest");
