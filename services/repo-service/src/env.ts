import { envAddress, envInt, parseEnv, z } from "@quarry/env";

/** repo-service configuration; the only module that reads process.env. */
export const repoEnvShape = {
  DATABASE_URL: z.string().url(),
  NATS_URL: z.string().optional(),
  GRPC_ADDRESS: envAddress("0.0.0.0:50052"),
  /** Directory holding the bare repositories (hashed layout); created when missing. */
  QUARRY_STORAGE_ROOT: z.string().default("./data/repositories"),
  /**
   * Several repository storages (GitLab's repository shards): `name=/path,name2=/path2`; a storage
   * named `default` is required. Unset: one storage, `default`, at QUARRY_STORAGE_ROOT.
   */
  QUARRY_STORAGES: z.string().optional(),
  /** Weights for placing new repositories (GitLab's repository_storages_weighted): `default=100,fast=50`; unset: default 100, others 0. */
  QUARRY_STORAGE_WEIGHTS: z.string().optional(),
  /** Pins GitLab's default_branch_protection for new default branches (0 none, 1 developers push, 2 full, 3 developers merge, 4 full after the first push); unset: the application setting. */
  QUARRY_DEFAULT_BRANCH_PROTECTION: z.coerce.number().int().min(0).max(4).optional(),
  /** Most long-lived `git cat-file` processes kept for reads; 0 = one process per read (no pool). */
  GIT_CATFILE_POOL_SIZE: envInt(64),
  LOG_LEVEL: z.string().default("info"),
  /** Git over SSH: the port of the SSH server (ssh/git-ssh.ts); 0 (default here) = off. */
  QUARRY_SSH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The SSH server's listen address. */
  QUARRY_SSH_LISTEN: z.string().default("0.0.0.0"),
  /** The SSH host the push events' ssh_url shows (default: the external URL's host). */
  QUARRY_SSH_HOST: z.string().optional(),
  /** The host key file (ed25519, generated on first start). */
  QUARRY_SSH_HOST_KEY: z.string().default("./data/ssh_host_ed25519_key"),
  /** identity-service, which the SSH server asks about keys and permissions (needed with QUARRY_SSH_PORT). */
  IDENTITY_SERVICE_ADDRESS: envAddress("127.0.0.1:50051"),
  /** The gateway's external URL, for the URLs in push events of SSH pushes. */
  QUARRY_EXTERNAL_URL: z.string().url().default("http://localhost:8080"),
};

export type RepoEnv = ReturnType<typeof loadRepoEnv>;

export function loadRepoEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(repoEnvShape, source);
}

/** The environment git subprocesses start from (PATH, HOME, locale …); git.ts adjusts it. */
export function inheritedEnvironment(): Record<string, string | undefined> {
  return process.env;
}
