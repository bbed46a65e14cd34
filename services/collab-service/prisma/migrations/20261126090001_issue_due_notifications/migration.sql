-- CreateTable
CREATE TABLE "issue_due_notifications" (
    "issue_id" INTEGER NOT NULL,
    "due_date" DATE NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_due_notifications_pkey" PRIMARY KEY ("issue_id","due_date")
);
