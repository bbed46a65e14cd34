// GitLab push / tag push webhook payloads. repo-service builds them for ref changes (written to
// its outbox in the same transaction as the change); hook-service builds the sample payload of a
// webhook test from the same code, so both send the same shape.
import { isTagRef } from "@quarry/gitlab";
import { Subjects, type PushEvent, type PushEventCommit } from "./events.ts";

/** The "no object" sha git uses for a created or deleted ref. */
const NULL_SHA = "0".repeat(40);

/** What a push payload tells about the project and the acting user (repo-service's PushContext). */
export interface PushPayloadContext {
  projectId: number;
  projectName: string;
  projectDescription: string;
  pathWithNamespace: string;
  namespaceName: string;
  /** 0 private, 10 internal, 20 public. */
  visibilityLevel: number;
  defaultBranch: string;
  webUrl: string;
  httpUrl: string;
  sshUrl: string;
  ciConfigPath: string;
  userId: number;
  userName: string;
  userUsername: string;
  userEmail: string;
  userAvatar: string;
}

/** The commit fields a push payload shows. */
export interface PushPayloadCommit {
  id: string;
  message: string;
  title: string;
  committedDate: string;
  authorName: string;
  authorEmail: string;
}

/** GitLab puts at most this many commits in a push payload (total_commits_count has them all). */
export const PUSH_COMMITS_LIMIT = 20;

/** A pushed commit with the paths it changed. */
export interface PushedCommit {
  commit: PushPayloadCommit;
  added?: string[];
  modified?: string[];
  removed?: string[];
}

export interface PushEventInput {
  context: PushPayloadContext;
  /** Old sha of the ref, NULL_SHA when it was created. */
  before: string;
  /** New sha of the ref, NULL_SHA when it was deleted. */
  after: string;
  /** Full ref name, e.g. "refs/heads/main" or "refs/tags/v1". */
  ref: string;
  /** The commit to check out; `after` by default, null when the ref was deleted. */
  checkoutSha?: string | null;
  /** New commits, oldest first; only the last PUSH_COMMITS_LIMIT go into the payload. */
  commits?: readonly PushedCommit[];
  /** Defaults to the number of `commits`. */
  totalCommitsCount?: number;
  refProtected?: boolean;
  /** Tag message of an annotated tag push; null otherwise. */
  message?: string | null;
  pushOptions?: Record<string, unknown>;
}

/** The outbox subject for a change of `ref`. */
export function pushSubject(ref: string): typeof Subjects.push | typeof Subjects.tagPush {
  return isTagRef(ref) ? Subjects.tagPush : Subjects.push;
}

const orNull = (s: string | null | undefined): string | null => (s ? s : null);

function commitAttrs(c: PushedCommit, webUrl: string): PushEventCommit {
  return {
    id: c.commit.id,
    message: c.commit.message,
    title: c.commit.title,
    timestamp: c.commit.committedDate, // GitLab's Commit#timestamp is the committed date
    url: `${webUrl}/-/commit/${c.commit.id}`,
    author: { name: c.commit.authorName, email: c.commit.authorEmail },
    added: c.added ?? [],
    modified: c.modified ?? [],
    removed: c.removed ?? [],
  };
}

/** GitLab's push event payload (without `event_id`, which enqueueEvent adds). */
export function buildPushEvent(i: PushEventInput): Omit<PushEvent, "event_id"> {
  const c = i.context;
  const kind = pushSubject(i.ref) === Subjects.tagPush ? "tag_push" : "push";
  const commits = i.commits ?? [];
  return {
    object_kind: kind,
    event_name: kind,
    before: i.before,
    after: i.after,
    ref: i.ref,
    ref_protected: i.refProtected ?? false,
    checkout_sha: i.checkoutSha !== undefined ? i.checkoutSha : i.after === NULL_SHA ? null : i.after,
    message: i.message ?? null,
    user_id: c.userId,
    user_name: c.userName,
    user_username: c.userUsername,
    user_email: orNull(c.userEmail),
    user_avatar: orNull(c.userAvatar),
    project_id: c.projectId,
    project: {
      id: c.projectId,
      name: c.projectName,
      description: orNull(c.projectDescription),
      web_url: c.webUrl,
      avatar_url: null,
      git_ssh_url: c.sshUrl,
      git_http_url: c.httpUrl,
      namespace: c.namespaceName,
      visibility_level: c.visibilityLevel,
      path_with_namespace: c.pathWithNamespace,
      default_branch: orNull(c.defaultBranch),
      ci_config_path: orNull(c.ciConfigPath),
      homepage: c.webUrl,
      url: c.sshUrl,
      ssh_url: c.sshUrl,
      http_url: c.httpUrl,
    },
    commits: commits.slice(-PUSH_COMMITS_LIMIT).map((commit) => commitAttrs(commit, c.webUrl)),
    total_commits_count: i.totalCommitsCount ?? commits.length,
    push_options: i.pushOptions ?? {},
    repository: {
      name: c.projectName,
      url: c.sshUrl,
      description: orNull(c.projectDescription),
      homepage: c.webUrl,
      git_http_url: c.httpUrl,
      git_ssh_url: c.sshUrl,
      visibility_level: c.visibilityLevel,
    },
  };
}
