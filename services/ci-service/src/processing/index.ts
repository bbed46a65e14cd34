// Pure job and pipeline state logic (GitLab's pipeline processing), for the ci-service RPCs.
export * from "./statuses.ts";
export * from "./composite-status.ts";
export * from "./processable.ts";
export * from "./dag-order.ts";
export * from "./pipeline-status.ts";
export * from "./process-pipeline.ts";
export * from "./cancel-pipeline.ts";
export * from "./retry.ts";
