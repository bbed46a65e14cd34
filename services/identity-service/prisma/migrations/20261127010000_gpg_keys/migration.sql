-- Users' GPG keys (GitLab's gpg_keys) and their subkeys (gpg_key_subkeys).

-- CreateTable
CREATE TABLE "gpg_keys" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "primary_keyid" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gpg_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gpg_key_subkeys" (
    "id" SERIAL NOT NULL,
    "gpg_key_id" INTEGER NOT NULL,
    "keyid" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,

    CONSTRAINT "gpg_key_subkeys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "gpg_keys_fingerprint_key" ON "gpg_keys"("fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "gpg_keys_primary_keyid_key" ON "gpg_keys"("primary_keyid");

-- CreateIndex
CREATE INDEX "gpg_keys_user_id_idx" ON "gpg_keys"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "gpg_key_subkeys_keyid_key" ON "gpg_key_subkeys"("keyid");

-- CreateIndex
CREATE UNIQUE INDEX "gpg_key_subkeys_fingerprint_key" ON "gpg_key_subkeys"("fingerprint");

-- CreateIndex
CREATE INDEX "gpg_key_subkeys_gpg_key_id_idx" ON "gpg_key_subkeys"("gpg_key_id");

-- AddForeignKey
ALTER TABLE "gpg_keys" ADD CONSTRAINT "gpg_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gpg_key_subkeys" ADD CONSTRAINT "gpg_key_subkeys_gpg_key_id_fkey" FOREIGN KEY ("gpg_key_id") REFERENCES "gpg_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
