-- Service accounts (group-provisioned bot users, e-mail reconfirmation) and secondary e-mail addresses.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "confirmation_digest" TEXT,
ADD COLUMN     "provisioned_by_group_id" INTEGER,
ADD COLUMN     "unconfirmed_email" TEXT;

-- CreateTable
CREATE TABLE "emails" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "confirmed_at" TIMESTAMP(3),
    "confirmation_digest" TEXT,
    "confirmation_sent_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_confirmation_digest_key" ON "users"("confirmation_digest");

-- CreateIndex
CREATE INDEX "users_provisioned_by_group_id_idx" ON "users"("provisioned_by_group_id");

-- CreateIndex
CREATE UNIQUE INDEX "emails_email_key" ON "emails"("email");

-- CreateIndex
CREATE UNIQUE INDEX "emails_confirmation_digest_key" ON "emails"("confirmation_digest");

-- CreateIndex
CREATE INDEX "emails_user_id_idx" ON "emails"("user_id");

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
