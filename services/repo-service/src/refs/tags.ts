// Helpers shared by the tag RPCs: reading tags (with their commits) in one `git for-each-ref`,
// GitLab's orderings, and tag-name validation.
import { BRANCH_REF_PREFIX, TAG_REF_PREFIX } from "@quarry/gitlab";
import { failedPrecondition } from "@quarry/grpc";
import type { Tag__Output as Tag } from "@quarry/proto/types/repo/v1/Tag";
import { compareNames } from "./branches.ts";
import { isoDate, records, REF_FIELDS, toCommit } from "../git/commits.ts";
import { git, isPlausibleBranchName } from "../git/git.ts";

/** A tag as read from the repository, with what sorting and signatures need. */
export interface TagRecord {
  tag: Tag;
  /** Creator date (tagger date, else the commit's committer date), seconds since the epoch. */
  creatorDate: number;
  /** The signature block of an annotated tag ("" when unsigned). */
  signature: string;
}

/**
 * Per ref: the commit fields of the ref's own object (a lightweight tag's commit), the same
 * fields of the object a tag object points at (`*`), then the tag's own facts.
 */
const TAG_FIELDS = [
  ...REF_FIELDS,
  ...REF_FIELDS.map((f) => f.replace("%(", "%(*")),
  "%(taggerdate:iso-strict)",
  "%(creatordate:unix)",
  "%(contents:signature)",
];
const TAG_FORMAT = `--format=${TAG_FIELDS.join("%00")}%00`;
const WIDTH = REF_FIELDS.length;

function toTagRecord(f: string[]): TagRecord {
  const own = f.slice(0, WIDTH);
  const peeled = f.slice(WIDTH, 2 * WIDTH);
  const [taggerDate = "", creatorDate = "0", signature = ""] = f.slice(2 * WIDTH);
  const [target = "", ref = "", type = ""] = own;
  const name = ref.slice(TAG_REF_PREFIX.length);
  if (type !== "tag") {
    const commit = type === "commit" ? toCommit(own) : null;
    return { tag: { name, annotated: false, message: "", target, createdAt: "", commit }, creatorDate: Number(creatorDate), signature: "" };
  }
  const contents = own[WIDTH - 1] ?? "";
  const message = signature && contents.endsWith(signature) ? contents.slice(0, -signature.length) : contents;
  const commit = peeled[2] === "commit" ? toCommit(peeled) : null;
  return {
    tag: { name, annotated: true, message, target, createdAt: taggerDate ? isoDate(taggerDate) : "", commit },
    creatorDate: Number(creatorDate),
    signature,
  };
}

/** Every tag under `refs/tags/` (full ref patterns narrow it), in ref-name order, with one `git for-each-ref`. */
export async function readTags(gitDir: string, patterns: readonly string[] = [TAG_REF_PREFIX]): Promise<TagRecord[]> {
  const { stdout } = await git(["for-each-ref", TAG_FORMAT, ...patterns], { gitDir });
  return records(stdout, TAG_FIELDS.length)
    .filter((r) => r[1]!.startsWith(TAG_REF_PREFIX))
    .map(toTagRecord);
}

/** The tag named exactly `name`, or null. */
export async function readTag(gitDir: string, name: string): Promise<TagRecord | null> {
  if (!isPlausibleBranchName(name)) return null;
  const found = await readTags(gitDir, [TAG_REF_PREFIX + name]);
  return found.find((t) => t.tag.name === name) ?? null;
}

export type TagOrder = "name" | "updated" | "version";

/**
 * GitLab's tag orderings (Gitaly FindAllTags): `name` by ref name bytes, `updated` by creator
 * date, `version` like version numbers. Ties go by name, ascending either way (as git does).
 */
export function sortTags(tags: readonly TagRecord[], order: TagOrder, direction: "asc" | "desc"): TagRecord[] {
  const sign = direction === "asc" ? 1 : -1;
  const byName = (a: TagRecord, b: TagRecord) => compareNames(a.tag.name, b.tag.name);
  const primary =
    order === "updated"
      ? (a: TagRecord, b: TagRecord) => a.creatorDate - b.creatorDate
      : order === "version"
        ? (a: TagRecord, b: TagRecord) => compareVersions(a.tag.name, b.tag.name)
        : byName;
  return [...tags].sort((a, b) => sign * primary(a, b) || byName(a, b));
}

/** Runs of digits and runs of letters; separators only split. */
function versionTokens(s: string): (number | string)[] {
  return (s.match(/\d+|[^\d\W_]+/gu) ?? []).map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

/**
 * Version order like GitLab's VersionSorter: numbers compare numerically (`v1.9` < `v1.10`), and
 * a version with extra words after a common prefix is a pre-release of it (`1.0-rc1` < `1.0`),
 * while extra numbers make it later (`1.0` < `1.0.1`). Numbers sort after words at one position.
 */
export function compareVersions(a: string, b: string): number {
  const x = versionTokens(a);
  const y = versionTokens(b);
  for (let i = 0; ; i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined && q === undefined) return 0;
    if (p === undefined) return typeof q === "number" ? -1 : 1;
    if (q === undefined) return typeof p === "number" ? 1 : -1;
    if (typeof p === "number" && typeof q === "number") {
      if (p !== q) return p - q;
    } else if (typeof p === "string" && typeof q === "string") {
      if (p !== q) return p < q ? -1 : 1;
    } else {
      return typeof p === "number" ? 1 : -1;
    }
  }
}

/** GitLab answers every tag creation failure with 405 and its message. */
export const tagCreationFailed = (message: string) => failedPrecondition(message, 405);

/**
 * Gitlab::GitRefValidator: not empty, no reserved prefix, not HEAD, and a valid ref name for git.
 * Names readTag would not look up ("@") are refused too, so every created tag can be read.
 */
export async function isValidTagName(name: string): Promise<boolean> {
  if (!isPlausibleBranchName(name) || [BRANCH_REF_PREFIX, TAG_REF_PREFIX, "refs/remotes/"].some((p) => name.startsWith(p))) return false;
  const { exitCode } = await git(["check-ref-format", TAG_REF_PREFIX + name], { cwd: "/", okExitCodes: [1] });
  return exitCode === 0;
}
