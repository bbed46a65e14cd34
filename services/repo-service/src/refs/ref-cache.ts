// Refs kept in memory per repository: HEAD's branch and every branch head (one read of the ref
// files: HEAD, packed-refs, loose refs), and every tag with its commit (one `git for-each-ref`,
// read the first time tags are asked for). A snapshot is served until the repository's refs
// change (git/ref-writes.ts: every git process that can write refs, and the handlers that replace
// a directory, move the generation on), so a warm read neither opens a ref file nor starts git.
import path from "node:path";
import { readBranchHeads } from "../git/git.ts";
import { refsGeneration } from "../git/ref-writes.ts";
import { readTags, sortTags, type TagOrder, type TagRecord } from "./tags.ts";

/** The refs of one repository at one generation. */
export interface RefSnapshot {
  /** The generation the snapshot was read at (it is current while the generation is). */
  readonly generation: number;
  /** The branch HEAD points at ("" when detached). */
  readonly head: string;
  /** Full branch ref name → head sha, in ref-name order. */
  readonly heads: ReadonlyMap<string, string>;
}

interface Entry extends RefSnapshot {
  tags?: Promise<TagRecord[]>;
  sortedTags: Map<string, TagRecord[]>;
}

/** Most repositories whose refs are kept; the one read longest ago goes first. */
const MAX_REPOSITORIES = 10_000;
/** Repository directory → its snapshot (replaced when its generation moves on), least recently read first. */
const snapshots = new Map<string, Entry>();
/** Repository directory → the snapshot being read, shared by concurrent readers. */
const loading = new Map<string, { generation: number; promise: Promise<Entry> }>();

async function entry(gitDir: string): Promise<Entry> {
  const dir = path.resolve(gitDir);
  const generation = refsGeneration(dir);
  const cached = snapshots.get(dir);
  if (cached?.generation === generation) {
    snapshots.delete(dir);
    snapshots.set(dir, cached);
    return cached;
  }
  const pending = loading.get(dir);
  if (pending?.generation === generation) return pending.promise;
  const promise = readBranchHeads(dir).then(({ head, heads }) => {
    const loaded: Entry = { generation, head, heads, sortedTags: new Map() };
    // Kept only when no ref write ended while reading (otherwise the next read reads again).
    if (refsGeneration(dir) === generation) {
      snapshots.delete(dir);
      snapshots.set(dir, loaded);
      if (snapshots.size > MAX_REPOSITORIES) snapshots.delete(snapshots.keys().next().value!);
    }
    return loaded;
  });
  loading.set(dir, { generation, promise });
  const done = () => {
    if (loading.get(dir)?.promise === promise) loading.delete(dir);
  };
  promise.then(done, done);
  return promise;
}

/** HEAD's branch and the branch heads of the repository at `gitDir` (a directory holding one). */
export async function refSnapshot(gitDir: string): Promise<RefSnapshot> {
  return entry(gitDir);
}

/** The sha of `refs/heads/<name>` in a snapshot ("" when there is no such branch). */
export function snapshotBranchHead(snapshot: RefSnapshot, name: string): string {
  return snapshot.heads.get(`refs/heads/${name}`) ?? "";
}

/** Every tag with its commit, in ref-name order (cached with the refs). */
export async function cachedTags(gitDir: string): Promise<TagRecord[]> {
  const e = await entry(gitDir);
  if (!e.tags) {
    e.tags = readTags(path.resolve(gitDir));
    // A failed read is not kept.
    e.tags.catch(() => {
      e.tags = undefined;
    });
  }
  return e.tags;
}

/** Every tag in an order (see sortTags), cached with the refs. */
export async function cachedSortedTags(gitDir: string, order: TagOrder, direction: "asc" | "desc"): Promise<TagRecord[]> {
  const e = await entry(gitDir);
  const key = `${order} ${direction}`;
  let sorted = e.sortedTags.get(key);
  if (!sorted) {
    sorted = sortTags(await cachedTags(gitDir), order, direction);
    e.sortedTags.set(key, sorted);
  }
  return sorted;
}

/** The tag named exactly `name` (cached with the refs), or null. */
export async function cachedTag(gitDir: string, name: string): Promise<TagRecord | null> {
  return (await cachedTags(gitDir)).find((t) => t.tag.name === name) ?? null;
}
