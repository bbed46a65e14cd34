import type { ApplicationSettingsCache } from "@quarry/application-settings";
import type { EventBus, OutboxRelay } from "@quarry/bus";
import type { Logger } from "@quarry/logger";
import type { PrismaClient } from "./generated/prisma/client.ts";
import type { CatFilePool } from "./git/cat-file.ts";
import type { GitSessionPool } from "./git/git-sessions.ts";
import type { RepositoryStorages } from "./storage/storages.ts";

/** Everything the handlers need, wired by hand in server.ts (or the standalone launcher). */
export interface RepoDeps {
  prisma: PrismaClient;
  /** Where the outbox relay publishes; handlers never publish directly. */
  bus: EventBus;
  /**
   * Publishes the `outbox_events` rows handlers write in their transactions (`enqueueEvent`);
   * `kick()` after a commit sends them without waiting for the poll.
   */
  outbox: OutboxRelay;
  log: Logger;
  /** Absolute path of the `default` storage's root (push hooks' scratch space lives there). */
  storageRoot: string;
  /** The repository storages: the one resolver of disk path → directory, placement, read-only state. */
  storages: RepositoryStorages;
  /** Long-lived `git cat-file` processes for object reads (no spawn per request). */
  catFile: CatFilePool;
  /** Long-lived `git update-ref --stdin` / `git diff-tree --stdin` processes for writes (no spawn per write). */
  gitSessions: GitSessionPool;
  /** GitLab's default_branch_protection (0–4) applied when a project's default branch is created. */
  defaultBranchProtection: number;
  /** The instance settings in force, kept live from the bus. */
  applicationSettings: ApplicationSettingsCache;
}
