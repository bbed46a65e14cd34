-- Repository storages: where each repository lives, and the storage moves between them.
CREATE TABLE "repository_storages" (
    "disk_path" TEXT NOT NULL,
    "storage" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "container_id" INTEGER NOT NULL,
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "repository_storages_pkey" PRIMARY KEY ("disk_path")
);

CREATE INDEX "repository_storages_storage_kind_idx" ON "repository_storages"("storage", "kind");

-- Every project repository made so far lives on the default storage.
INSERT INTO "repository_storages" ("disk_path", "storage", "kind", "container_id", "updated_at")
SELECT "disk_path", 'default', 'project', "project_id", CURRENT_TIMESTAMP FROM "repositories";

CREATE TABLE "repository_storage_moves" (
    "id" SERIAL NOT NULL,
    "container_type" TEXT NOT NULL,
    "container_id" INTEGER NOT NULL,
    "disk_path" TEXT NOT NULL,
    "source_storage_name" TEXT NOT NULL,
    "destination_storage_name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "error_message" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "repository_storage_moves_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "repository_storage_moves_container_type_container_id_idx" ON "repository_storage_moves"("container_type", "container_id");
CREATE INDEX "repository_storage_moves_state_idx" ON "repository_storage_moves"("state");
