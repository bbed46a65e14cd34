import { envAddress, envInt, parseEnv, z } from "@quarry/env";

/** collab-service configuration; the only module that reads process.env. */
export const collabEnvShape = {
  DATABASE_URL: z.string().url(),
  /** NATS JetStream; unset = in-process bus (only useful inside the one-process launcher). */
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50056"),
  /** identity-service: who may see or change a project or group, and a project's groups. */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  /** repo-service: the snippets' git repositories (create, commit, read, delete). */
  REPO_SERVICE_ADDRESS: envAddress("127.0.0.1:50052"),
  GRPC_DEADLINE_MS: envInt(10_000),
  LOG_LEVEL: z.string().default("info"),
  /** Pins GitLab's notes_create_limit (notes one user may create per minute; 0 = unlimited); unset: the application setting. */
  QUARRY_NOTES_CREATE_LIMIT: z.coerce.number().int().min(0).optional(),
  /** How often the issue_due scheduler looks for open issues due tomorrow, ms (each is announced once per due date). */
  QUARRY_ISSUE_DUE_INTERVAL_MS: envInt(3_600_000),
};

export type CollabEnv = ReturnType<typeof loadCollabEnv>;

export function loadCollabEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(collabEnvShape, source);
}
