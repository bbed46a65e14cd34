import type { EventBus } from "@quarry/bus";
import type { Logger } from "@quarry/logger";
import type { ObjectStore } from "@quarry/object-store";
import type { SecretBox } from "@quarry/secret-box";
import type { TransactionClient } from "@quarry/service";
import type { PrismaClient } from "./generated/prisma/client.ts";
import type { JobQueueSignal } from "./pipelines/queue-signal.ts";
import type { StorageKind } from "./storage.ts";

export type { PrismaClient };
/** The client of an interactive transaction (`prisma.$transaction(async (tx) => …)`). */
export type Tx = TransactionClient<PrismaClient>;

/** A commit as pipelines record it. */
export interface CommitFacts {
  sha: string;
  title: string;
  message: string;
  authorName: string;
  authorEmail: string;
  committedDate: string;
}

/** Reads repositories (through repo-service; ci-service never touches git itself). */
export interface RepositoryReader {
  /** A file's content at a revision; null when the file (or the revision) does not exist. */
  readFile(diskPath: string, revision: string, path: string): Promise<string | null>;
  /** The commit a revision names; null when it names none. */
  findCommit(diskPath: string, revision: string): Promise<CommitFacts | null>;
}

/** What ci-service needs of a project; identity-service owns projects. */
export interface ProjectFacts {
  id: number;
  pathWithNamespace: string;
  defaultBranch: string;
  diskPath: string;
  /** Empty = `.gitlab-ci.yml`. */
  ciConfigPath: string;
  visibility: string;
}

/** ProjectFacts from any message carrying the same fields (identity's Project, ci's ProjectContext). */
export function projectFacts(p: {
  id: number | string;
  pathWithNamespace: string;
  defaultBranch: string;
  diskPath: string;
  ciConfigPath: string;
  visibility: string;
}): ProjectFacts {
  return {
    id: Number(p.id),
    pathWithNamespace: p.pathWithNamespace,
    defaultBranch: p.defaultBranch,
    diskPath: p.diskPath,
    ciConfigPath: p.ciConfigPath,
    visibility: p.visibility,
  };
}

export interface ProjectDirectory {
  /** As `userId` sees it (the user who triggered the work); null when missing or invisible. */
  getProject(id: number, userId: number): Promise<ProjectFacts | null>;
  /**
   * The ids of the projects in a group and all its subgroups, as identity-service knows them now
   * (GitLab's runner namespace `self_and_descendants` projects): the projects a group runner serves.
   * Asked at claim time, so transfers in or out of the group count at once. Empty for no group.
   */
  groupProjectIds(groupId: number): Promise<number[]>;
}

/** Tunables from env.ts. */
export interface CiSettings {
  /** Seconds of runner silence after which a running job is failed as stuck. */
  runnerSilenceTimeoutSeconds: number;
  /** Expiry of artifacts whose job does not say, e.g. "30 days". */
  defaultArtifactsExpireIn: string;
  /** Downloads answer with presigned URLs when the store can make them. */
  artifactsDirectDownload: boolean;
  /** Largest artifact file accepted (GitLab's max_artifacts_size). */
  maxArtifactSizeBytes: number;
  /** The instance runner registration token (legacy POST /runners); empty = registration closed. */
  runnerRegistrationToken: string;
  /** How often each replica runs the stuck-job watchdog and the artifact cleanup, seconds. */
  workerIntervalSeconds: number;
}

export const DEFAULT_CI_SETTINGS: CiSettings = {
  runnerSilenceTimeoutSeconds: 3600,
  defaultArtifactsExpireIn: "30 days",
  artifactsDirectDownload: false,
  runnerRegistrationToken: "",
  maxArtifactSizeBytes: 100 * 1024 * 1024,
  workerIntervalSeconds: 60,
};

/** Everything the handlers need, wired by hand in server.ts. */
export interface CiDeps {
  prisma: PrismaClient;
  /** Artifacts; its bucket is the artifacts bucket. */
  objectStore: ObjectStore;
  storageKind: StorageKind;
  repositories: RepositoryReader;
  projects: ProjectDirectory;
  /** Wakes long-polling job requests when jobs become pending. */
  queue: JobQueueSignal;
  settings: CiSettings;
  /** Where pipeline, job and deployment status changes are published (the bus; tests record them). */
  events: Pick<EventBus, "publish">;
  log: Logger;
  /** Seals what must be read back: projects' runner registration tokens. */
  secrets: SecretBox;
}
