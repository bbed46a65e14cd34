import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { CommitSignature__Output as CommitSignature } from "@quarry/proto/types/repo/v1/CommitSignature";
import type { CommitStats__Output as CommitStats } from "@quarry/proto/types/repo/v1/CommitStats";
import type { VerifySignatureResponse__Output as VerifySignatureResponse } from "@quarry/proto/types/identity/v1/VerifySignatureResponse";
import type { pipelineBasic } from "./pipeline.ts";
import { sshKey } from "./ssh-key.ts";
import type { Urls } from "./urls.ts";

/**
 * GitLab's Commit#full_title, which the API shows as `title`: the whole first line of the
 * message (not cut at 100 characters like the title elsewhere), "No commit message" when blank.
 */
export function fullTitle(message: string): string {
  return message.trim() ? (message.split(/[\r\n]/, 1)[0] ?? "") : "No commit message";
}

/** A commit (GitLab's API::Entities::Commit); `created_at` is always the committed date. */
export function commitEntity(c: Commit, projectWebUrl: string) {
  return {
    id: c.id,
    short_id: c.shortId,
    created_at: c.committedDate,
    parent_ids: c.parentIds,
    title: fullTitle(c.message),
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers: c.trailers ?? {},
    extended_trailers: Object.fromEntries(Object.entries(c.extendedTrailers ?? {}).map(([k, v]) => [k, v.values])),
    web_url: `${projectWebUrl}/-/commit/${c.id}`,
  };
}

/** GitLab's CommitStats. */
export function commitStatsEntity(s: CommitStats) {
  return { additions: Number(s.additions), deletions: Number(s.deletions), total: Number(s.total) };
}

/** A commit with its stats (API::Entities::CommitWithStats, the listing's `with_stats`). */
export function commitWithStatsEntity(c: Commit, stats: CommitStats | null, projectWebUrl: string) {
  return { ...commitEntity(c, projectWebUrl), stats: commitStatsEntity(stats ?? { additions: 0, deletions: 0, total: 0 }) };
}

/**
 * A single commit (API::Entities::CommitDetail): stats when asked for, the status of its newest
 * pipeline and that pipeline (both null when it has none) and the project id.
 */
export function commitDetailEntity(
  c: Commit,
  stats: CommitStats | null,
  projectWebUrl: string,
  projectId: number,
  lastPipeline: ReturnType<typeof pipelineBasic> | null,
) {
  return {
    ...commitEntity(c, projectWebUrl),
    ...(stats ? { stats: commitStatsEntity(stats) } : {}),
    status: lastPipeline?.status ?? null,
    project_id: projectId,
    last_pipeline: lastPipeline,
  };
}

/**
 * A commit's signature (API::Entities::CommitSignature) with identity-service's verdict on it
 * (`verification`): PGP with the matching GPG key and its user id, SSH with the user's signing key.
 * Without a verdict (X.509 signatures are not verified) the status is "unverified".
 */
export function commitSignatureEntity(s: CommitSignature, verification?: VerifySignatureResponse | null, urls?: Urls) {
  const common = { signature_type: s.signatureType, verification_status: verification?.verificationStatus || "unverified" };
  switch (s.signatureType) {
    case "PGP":
      return {
        ...common,
        gpg_key_id: Number(verification?.gpgKeyId) || null,
        gpg_key_primary_keyid: verification?.gpgKeyPrimaryKeyid || s.gpgKeyPrimaryKeyid || null,
        gpg_key_user_name: verification?.gpgKeyUserName || null,
        gpg_key_user_email: verification?.gpgKeyUserEmail || null,
        gpg_key_subkey_id: Number(verification?.gpgKeySubkeyId) || null,
        commit_source: "gitaly",
      };
    case "SSH":
      return { ...common, key: verification?.sshKey && urls ? sshKey(verification.sshKey, urls) : null, commit_source: "gitaly" };
    default:
      return { ...common, x509_certificate: null, commit_source: "gitaly" };
  }
}
