// Editing a commit's tree in place of a temporary index: only the directories on the edited paths
// are read (through the cat-file pool) and only those are written again, as loose objects; every
// other subtree keeps its id. A one-file commit in a big repository reads and writes a few small
// tree objects instead of listing and re-hashing the whole tree.
import type { CatFilePool } from "./cat-file.ts";
import type { ObjectBatch } from "./loose-objects.ts";

/** A tree entry: mode ("100644", "100755", "120000", "160000", "040000") and object id. */
export interface TreeEntry {
  mode: string;
  oid: string;
}

const TREE = "040000";

/** The id of the empty tree (the "parent tree" of a root commit). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * One directory of the edited tree. Entry names are byte strings (latin1), so that names which
 * are not UTF-8 survive being written again; `oid` is the tree as read ("" for a new directory).
 */
interface Dir {
  entries: Map<string, TreeEntry>;
  /** The subdirectories read so far, by name. */
  subdirs: Map<string, Dir>;
  oid: string;
  dirty: boolean;
}

/** A path's segments as byte strings (see Dir). */
function segments(p: string): string[] {
  return p.split("/").map((s) => Buffer.from(s, "utf8").toString("latin1"));
}

/** Parses a tree object into its entries (byte-string names, six-digit modes). */
function parseEntries(data: Buffer, oidBytes: number): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (let i = 0; i < data.length; ) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0x00, space + 1);
    if (space === -1 || nul === -1 || nul + 1 + oidBytes > data.length) throw new Error("malformed tree object");
    const mode = data.toString("latin1", i, space).padStart(6, "0");
    entries.set(data.toString("latin1", space + 1, nul), { mode, oid: data.toString("hex", nul + 1, nul + 1 + oidBytes) });
    i = nul + 1 + oidBytes;
  }
  return entries;
}

/**
 * A tree object's bytes: entries in git's order (by name bytes, a directory's name compared as
 * if it ended in "/"), modes without leading zeros as git writes them.
 */
export function serializeTree(entries: ReadonlyMap<string, TreeEntry>): Buffer {
  const key = (name: string, e: TreeEntry) => (e.mode === TREE ? `${name}/` : name);
  const sorted = [...entries].sort(([a, x], [b, y]) => {
    const ka = key(a, x);
    const kb = key(b, y);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return Buffer.concat(sorted.flatMap(([name, e]) => [Buffer.from(`${e.mode.replace(/^0+/, "")} ${name}\0`, "latin1"), Buffer.from(e.oid, "hex")]));
}

/**
 * The files of a tree being edited, with the changes made so far (path → entry, null = removed)
 * and each changed path's entry before its first change. Paths are full paths from the root;
 * "files" are every entry but directories (blobs, symbolic links, submodules). Only the
 * directories along the paths given to `load` can be asked about or changed.
 */
export class TreeEdit {
  readonly changes = new Map<string, TreeEntry | null>();
  /** Each changed path's file entry in the start tree (undefined: there was none). */
  readonly before = new Map<string, TreeEntry | undefined>();

  private constructor(
    private readonly root: Dir,
    /** The start tree's id (EMPTY_TREE for no start commit). */
    readonly baseTree: string,
  ) {}

  /**
   * Reads the directories on the way to each of `paths` in the tree of commit `base` ("" for an
   * empty start), one level at a time (each level's reads pipelined on one cat-file process).
   */
  static async load(catFile: CatFilePool, gitDir: string, base: string, paths: readonly string[]): Promise<TreeEdit> {
    if (!base) return new TreeEdit({ entries: new Map(), subdirs: new Map(), oid: EMPTY_TREE, dirty: false }, EMPTY_TREE);
    return catFile.use(gitDir, async (objects) => {
      const read = async (rev: string): Promise<Dir> => {
        const tree = await objects.read(rev);
        if (tree?.type !== "tree") throw new Error(`not a tree: ${rev}`);
        return { entries: parseEntries(tree.data, tree.oid.length / 2), subdirs: new Map(), oid: tree.oid, dirty: false };
      };
      const root = await read(`${base}^{tree}`);
      // Each path's directories, one level per round: the subdirectories a round steps into
      // are read concurrently, each once.
      let level = paths.map((p) => ({ dir: root, rest: segments(p).slice(0, -1) })).filter((l) => l.rest.length);
      while (level.length) {
        const reads: Promise<void>[] = [];
        const requested = new Map<Dir, Set<string>>();
        for (const { dir, rest } of level) {
          const name = rest[0]!;
          const entry = dir.entries.get(name);
          if (entry?.mode !== TREE || dir.subdirs.has(name)) continue;
          const names = requested.get(dir) ?? new Set<string>();
          requested.set(dir, names);
          if (names.has(name)) continue;
          names.add(name);
          reads.push(read(entry.oid).then((sub) => void dir.subdirs.set(name, sub)));
        }
        await Promise.all(reads);
        level = level.flatMap(({ dir, rest: [name, ...below] }) => {
          const sub = dir.subdirs.get(name!);
          return sub && below.length ? [{ dir: sub, rest: below }] : [];
        });
      }
      return new TreeEdit(root, root.oid);
    });
  }

  /** The file entry at `p`, undefined when there is none (or a directory is there). */
  get(p: string): TreeEntry | undefined {
    const at = this.locate(p);
    const entry = at?.dir.entries.get(at.name);
    return entry && entry.mode !== TREE ? entry : undefined;
  }

  /** Whether `p` is a directory. */
  isDirectory(p: string): boolean {
    const at = this.locate(p);
    return at?.dir.entries.get(at.name)?.mode === TREE;
  }

  set(p: string, entry: TreeEntry): void {
    this.remember(p);
    const names = segments(p);
    let dir = this.root;
    dir.dirty = true;
    for (const name of names.slice(0, -1)) {
      const existing = dir.entries.get(name);
      let sub = dir.subdirs.get(name);
      if (!existing) {
        sub = { entries: new Map(), subdirs: new Map(), oid: "", dirty: true };
        dir.entries.set(name, { mode: TREE, oid: "" });
        dir.subdirs.set(name, sub);
      }
      if (!sub) throw new Error(`tree edit: ${p} crosses a file or a directory that was not read`);
      sub.dirty = true;
      dir = sub;
    }
    dir.entries.set(names[names.length - 1]!, entry);
    this.changes.set(p, entry);
  }

  /** Removes the file at `p`; directories left empty go too (git stores no empty directories). */
  remove(p: string): void {
    this.remember(p);
    const names = segments(p);
    const parents: { dir: Dir; name: string }[] = [];
    let dir = this.root;
    for (const name of names.slice(0, -1)) {
      parents.push({ dir, name });
      const sub = dir.subdirs.get(name);
      if (!sub) throw new Error(`tree edit: ${p} crosses a file or a directory that was not read`);
      dir = sub;
    }
    dir.entries.delete(names[names.length - 1]!);
    for (const step of [...parents, { dir, name: "" }]) step.dir.dirty = true;
    for (let i = parents.length - 1; i >= 0 && dir.entries.size === 0; i--) {
      const { dir: parent, name } = parents[i]!;
      parent.entries.delete(name);
      parent.subdirs.delete(name);
      dir = parent;
    }
    this.changes.set(p, null);
  }

  /** Replaces placeholder object ids (content not written yet) with the real ones. */
  replaceOids(ids: ReadonlyMap<string, string>): void {
    const visit = (dir: Dir) => {
      for (const [name, e] of dir.entries) {
        const oid = ids.get(e.oid);
        if (oid !== undefined) dir.entries.set(name, { mode: e.mode, oid });
      }
      for (const sub of dir.subdirs.values()) if (sub.dirty) visit(sub);
    };
    visit(this.root);
    for (const [p, e] of this.changes) {
      const oid = e ? ids.get(e.oid) : undefined;
      if (e && oid !== undefined) this.changes.set(p, { mode: e.mode, oid });
    }
  }

  /** Adds the changed directories (deepest first) to `batch` and returns the new root tree's id. */
  write(batch: ObjectBatch): string {
    const writeDir = (dir: Dir): string => {
      if (!dir.dirty) return dir.oid;
      for (const [name, sub] of dir.subdirs) if (sub.dirty) dir.entries.set(name, { mode: TREE, oid: writeDir(sub) });
      dir.oid = batch.add("tree", serializeTree(dir.entries));
      dir.dirty = false;
      return dir.oid;
    };
    return writeDir(this.root);
  }

  /**
   * What the edit changed against the start tree, as `git diff-tree -r --no-renames` reports it:
   * paths added, modified (content, mode or type) and removed, each in git's (byte) order.
   */
  diff(): { path: string; before?: TreeEntry; after?: TreeEntry }[] {
    const out: { path: string; before?: TreeEntry; after?: TreeEntry }[] = [];
    for (const [p, before] of this.before) {
      const after = this.get(p);
      if (before?.mode === after?.mode && before?.oid === after?.oid) continue;
      out.push({ path: p, before, after });
    }
    return out.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  }

  private remember(p: string): void {
    if (!this.before.has(p)) this.before.set(p, this.get(p));
  }

  /** The directory holding `p` and its last segment, or null when a parent is missing or a file. */
  private locate(p: string): { dir: Dir; name: string } | null {
    const names = segments(p);
    let dir = this.root;
    for (const name of names.slice(0, -1)) {
      if (dir.entries.get(name)?.mode !== TREE) return null;
      const sub = dir.subdirs.get(name);
      if (!sub) throw new Error(`tree edit: ${p} lies in a directory that was not read`);
      dir = sub;
    }
    return { dir, name: names[names.length - 1]! };
  }
}
