-- When a note row was really written: created_at may be back-dated by administrators and owners
-- (the API's created_at), so the per-user notes create rate limit counts by this column instead.
ALTER TABLE "notes" ADD COLUMN "recorded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "notes_author_id_recorded_at_idx" ON "notes"("author_id", "recorded_at");
