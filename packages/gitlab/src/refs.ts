/** Where git keeps branches: `refs/heads/<branch>`. */
export const BRANCH_REF_PREFIX = "refs/heads/";
/** Where git keeps tags: `refs/tags/<tag>`. */
export const TAG_REF_PREFIX = "refs/tags/";

/** The full ref of a branch name (`main` → `refs/heads/main`). */
export const branchRef = (branch: string): string => BRANCH_REF_PREFIX + branch;
/** The full ref of a tag name (`v1` → `refs/tags/v1`). */
export const tagRef = (tag: string): string => TAG_REF_PREFIX + tag;

export const isBranchRef = (ref: string): boolean => ref.startsWith(BRANCH_REF_PREFIX);
export const isTagRef = (ref: string): boolean => ref.startsWith(TAG_REF_PREFIX);

/** The branch a full ref names (`refs/heads/a/b` → `a/b`), or null for any other ref. */
export const branchOfRef = (ref: string): string | null => (isBranchRef(ref) ? ref.slice(BRANCH_REF_PREFIX.length) : null);
/** The tag a full ref names (`refs/tags/v1` → `v1`), or null for any other ref. */
export const tagOfRef = (ref: string): string | null => (isTagRef(ref) ? ref.slice(TAG_REF_PREFIX.length) : null);
