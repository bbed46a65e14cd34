import type { BlameRange__Output as BlameRange } from "@quarry/proto/types/repo/v1/BlameRange";
import type { RepositoryFile__Output as RepositoryFile } from "@quarry/proto/types/repo/v1/RepositoryFile";

/** A repository file's metadata (GitLab's blob_data in lib/api/files.rb), without content. */
export function fileMetadata(f: RepositoryFile) {
  return {
    file_name: f.fileName,
    file_path: f.filePath,
    size: f.size,
    encoding: "base64",
    content_sha256: f.contentSha256,
    ref: f.ref,
    blob_id: f.blobId,
    commit_id: f.commitId,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.executeFilemode,
  };
}

/** A repository file with its Base64 content. */
export function fileEntity(f: RepositoryFile) {
  return { ...fileMetadata(f), content: f.content.toString("base64") };
}

/** "file_name" → "File-Name", as GitLab's set_http_headers spells header names. */
const headerWords = (key: string) =>
  key
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("-");

/**
 * A header value as UTF-8 bytes (Node writes header strings as Latin-1, so the string carries one
 * byte per character), without control characters, which headers cannot hold.
 */
const headerValue = (v: unknown) => Buffer.from(String(v).replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ""), "utf8").toString("latin1");

/**
 * The metadata as response headers: `X-Gitlab-<Key>` (what GitLab sends and clients read) and
 * `X-Service-<Key>` (the contract's name for them).
 */
export function fileHeaders(f: RepositoryFile): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileMetadata(f))) {
    headers[`X-Gitlab-${headerWords(key)}`] = headerValue(value);
    headers[`X-Service-${headerWords(key)}`] = headerValue(value);
  }
  return headers;
}

/** Characters Rails' ContentDisposition percent-escapes in `filename="…"` and in `filename*=`. */
const TRADITIONAL_ESCAPED = /[^ A-Za-z0-9!#$+.^_`|~-]/gu;
const RFC5987_ESCAPED = /[^A-Za-z0-9!#$&+.^_`|~-]/gu;
const percentEscape = (s: string, pattern: RegExp) =>
  s.replace(pattern, (ch) => [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""));

/**
 * `Content-Disposition` as Rails formats it: an ASCII fallback (accents dropped, other
 * characters "?") and the exact name in RFC 5987 form.
 */
export function contentDisposition(disposition: "inline" | "attachment", filename: string): string {
  const ascii = filename
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x00-\x7f]/gu, "?");
  return `${disposition}; filename="${percentEscape(ascii, TRADITIONAL_ESCAPED)}"; filename*=UTF-8''${percentEscape(filename, RFC5987_ESCAPED)}`;
}

/** A name that can stand between the quotes of `filename="…"` as it is. */
const PLAIN_FILENAME = /^[\x20-\x7e]*$/;

/**
 * Workhorse's archive header, `attachment; filename="<name>"`, for plain ASCII names; any other
 * name (non-ASCII, a quote or backslash, control characters) in RFC 6266 form, so the header
 * is always valid and the exact name survives in `filename*`.
 */
export function attachmentDisposition(filename: string): string {
  return PLAIN_FILENAME.test(filename) && !/["\\]/.test(filename) ? `attachment; filename="${filename}"` : contentDisposition("attachment", filename);
}

/** A blame range (GitLab's API::Entities::BlameRange with BlameRangeCommit). */
export function blameRangeEntity(r: BlameRange) {
  const c = r.commit;
  return {
    commit: c
      ? {
          id: c.id,
          parent_ids: c.parentIds,
          message: c.message,
          authored_date: c.authoredDate,
          author_name: c.authorName,
          author_email: c.authorEmail,
          committed_date: c.committedDate,
          committer_name: c.committerName,
          committer_email: c.committerEmail,
        }
      : null,
    lines: r.lines,
  };
}
