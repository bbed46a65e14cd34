-- The instance settings (GET/PUT /application/settings): one row holding the honoured settings as JSON.

-- CreateTable
CREATE TABLE "application_settings" (
    "id" INTEGER NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "revision" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "application_settings_pkey" PRIMARY KEY ("id")
);
