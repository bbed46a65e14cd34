-- CreateTable
CREATE TABLE "labels" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER,
    "group_id" INTEGER,
    "title" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "labels_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "labels_one_parent" CHECK (("project_id" IS NULL) <> ("group_id" IS NULL))
);

-- CreateTable
CREATE TABLE "label_priorities" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "label_id" INTEGER NOT NULL,
    "priority" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "label_priorities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "label_subscriptions" (
    "id" SERIAL NOT NULL,
    "label_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL DEFAULT 0,
    "subscribed" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "label_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "labels_project_id_title_key" ON "labels"("project_id", "title");

-- CreateIndex
CREATE UNIQUE INDEX "labels_group_id_title_key" ON "labels"("group_id", "title");

-- CreateIndex
CREATE UNIQUE INDEX "label_priorities_project_id_label_id_key" ON "label_priorities"("project_id", "label_id");

-- CreateIndex
CREATE INDEX "label_priorities_label_id_idx" ON "label_priorities"("label_id");

-- CreateIndex
CREATE UNIQUE INDEX "label_subscriptions_label_id_user_id_project_id_key" ON "label_subscriptions"("label_id", "user_id", "project_id");

-- CreateIndex
CREATE INDEX "label_subscriptions_user_id_idx" ON "label_subscriptions"("user_id");

-- AddForeignKey
ALTER TABLE "label_priorities" ADD CONSTRAINT "label_priorities_label_id_fkey"
    FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "label_subscriptions" ADD CONSTRAINT "label_subscriptions_label_id_fkey"
    FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
