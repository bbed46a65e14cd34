-- CreateTable
CREATE TABLE "web_hooks" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER,
    "group_id" INTEGER,
    "url" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "uuid" UUID NOT NULL,
    "push_events" BOOLEAN NOT NULL DEFAULT true,
    "tag_push_events" BOOLEAN NOT NULL DEFAULT false,
    "merge_requests_events" BOOLEAN NOT NULL DEFAULT false,
    "repository_update_events" BOOLEAN NOT NULL DEFAULT false,
    "issues_events" BOOLEAN NOT NULL DEFAULT false,
    "confidential_issues_events" BOOLEAN NOT NULL DEFAULT false,
    "note_events" BOOLEAN NOT NULL DEFAULT false,
    "confidential_note_events" BOOLEAN NOT NULL DEFAULT false,
    "pipeline_events" BOOLEAN NOT NULL DEFAULT false,
    "wiki_page_events" BOOLEAN NOT NULL DEFAULT false,
    "job_events" BOOLEAN NOT NULL DEFAULT false,
    "deployment_events" BOOLEAN NOT NULL DEFAULT false,
    "feature_flag_events" BOOLEAN NOT NULL DEFAULT false,
    "releases_events" BOOLEAN NOT NULL DEFAULT false,
    "milestone_events" BOOLEAN NOT NULL DEFAULT false,
    "resource_access_token_events" BOOLEAN NOT NULL DEFAULT false,
    "subgroup_events" BOOLEAN NOT NULL DEFAULT false,
    "emoji_events" BOOLEAN NOT NULL DEFAULT false,
    "member_events" BOOLEAN NOT NULL DEFAULT false,
    "project_events" BOOLEAN NOT NULL DEFAULT false,
    "push_events_branch_filter" TEXT,
    "branch_filter_strategy" TEXT NOT NULL DEFAULT 'wildcard',
    "enable_ssl_verification" BOOLEAN NOT NULL DEFAULT true,
    "custom_webhook_template" TEXT,
    "custom_header_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "url_variable_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "encrypted_secrets" BYTEA,
    "recent_failures" INTEGER NOT NULL DEFAULT 0,
    "backoff_count" INTEGER NOT NULL DEFAULT 0,
    "disabled_until" TIMESTAMP(3),
    "permanently_disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_hooks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "web_hooks_one_owner" CHECK (("project_id" IS NULL) <> ("group_id" IS NULL))
);

-- CreateTable
CREATE TABLE "web_hook_logs" (
    "id" BIGSERIAL NOT NULL,
    "hook_id" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "request_headers" JSONB NOT NULL,
    "request_data" JSONB NOT NULL,
    "response_headers" JSONB NOT NULL,
    "response_body" TEXT NOT NULL,
    "response_status" TEXT NOT NULL,
    "execution_duration" DOUBLE PRECISION NOT NULL,
    "internal_error_message" TEXT,
    "idempotency_key" UUID NOT NULL,
    "event_uuid" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_hook_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "web_hook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "hook_id" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "idempotency_key" UUID NOT NULL,
    "event_uuid" UUID NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_hook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "web_hook_rate_limits" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "web_hook_rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "web_hooks_project_id_id_idx" ON "web_hooks"("project_id", "id");

-- CreateIndex
CREATE INDEX "web_hooks_group_id_id_idx" ON "web_hooks"("group_id", "id");

-- CreateIndex
CREATE INDEX "web_hook_logs_hook_id_created_at_idx" ON "web_hook_logs"("hook_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "web_hook_deliveries_event_id_hook_id_key" ON "web_hook_deliveries"("event_id", "hook_id");

-- CreateIndex
CREATE INDEX "web_hook_deliveries_state_next_attempt_at_idx" ON "web_hook_deliveries"("state", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "web_hook_logs" ADD CONSTRAINT "web_hook_logs_hook_id_fkey" FOREIGN KEY ("hook_id") REFERENCES "web_hooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "web_hook_deliveries" ADD CONSTRAINT "web_hook_deliveries_hook_id_fkey" FOREIGN KEY ("hook_id") REFERENCES "web_hooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
