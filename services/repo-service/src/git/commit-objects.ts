// Commits read straight from their objects through the cat-file pool (no process per request):
// parsing a commit object into the API's Commit, and walking history in `git log`'s default order.
import { TextDecoder } from "node:util";
import { notFound } from "@quarry/grpc";
import type { RepoDeps } from "../deps.ts";
import type { CatFileProcess, CatFilePool } from "./cat-file.ts";
import { commitTitle, SHORT_ID_LENGTH, type Commit } from "./commits.ts";
import { isRepository } from "./git.ts";
import { objectCaches } from "./object-cache.ts";
import { parseTrailers, trailerMaps } from "./trailers.ts";

/** A commit object's parts, before they become a Commit. */
export interface ParsedCommit {
  oid: string;
  parents: string[];
  /** Committer time in seconds since the epoch (what `git log` orders by). */
  commitTime: number;
  /** The object's signature header (`gpgsig`, or `gpgsig-sha256`), "" when unsigned. */
  signature: string;
  author: Ident;
  committer: Ident;
  message: string;
}

interface Ident {
  name: string;
  email: string;
  /** ISO 8601 with the ident's own offset, as `%aI`/`%cI` print it. */
  date: string;
  time: number;
}

/** Whether `rev` could name a commit as GitLab accepts it (no option, path, range or blank). */
export function isPlausibleRevision(rev: string): boolean {
  return !!rev && !rev.startsWith("-") && !/[\s\0:]|\.\./.test(rev);
}

/** "Name <email> 1700000000 +0130" → its parts (git's split_ident_line, leniently). */
function parseIdent(line: string): Ident {
  const lt = line.indexOf("<");
  const gt = lt === -1 ? -1 : line.indexOf(">", lt);
  if (lt === -1 || gt === -1) return { name: line.trim(), email: "", date: isoDate(0, "+0000"), time: 0 };
  const [ts = "0", tz = "+0000"] = line
    .slice(gt + 1)
    .trim()
    .split(/\s+/);
  const time = Number(ts) || 0;
  return { name: line.slice(0, lt).trim(), email: line.slice(lt + 1, gt), date: isoDate(time, tz), time };
}

/** Seconds and a "+hhmm" zone → "YYYY-MM-DDTHH:MM:SS+hh:mm" in that zone (git's iso-strict, "+00:00" for UTC). */
export function isoDate(time: number, tz: string): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(tz) ?? ["", "+", "00", "00"];
  const sign = m[1] === "-" ? -1 : 1;
  const offsetMinutes = sign * (Number(m[2]) * 60 + Number(m[3]));
  const local = new Date((time + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  const zone = offsetMinutes === 0 ? "+00:00" : `${m[1]}${m[2]}:${m[3]}`;
  return `${local}${zone}`;
}

/** Decodes with the object's `encoding` header, as `git log` re-encodes to UTF-8. */
function decoder(encoding: string): TextDecoder {
  try {
    return new TextDecoder(encoding || "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/** Parses a commit object's bytes. */
export function parseCommitObject(oid: string, data: Buffer): ParsedCommit {
  const split = data.indexOf("\n\n");
  const headerBytes = split === -1 ? data : data.subarray(0, split);
  const messageBytes = split === -1 ? Buffer.alloc(0) : data.subarray(split + 2);
  // Header values may continue on lines starting with a space (gpgsig, mergetag).
  const headers: [string, string][] = [];
  for (const line of headerBytes.toString("latin1").split("\n")) {
    if (line.startsWith(" ") && headers.length) headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
    else {
      const space = line.indexOf(" ");
      headers.push(space === -1 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)]);
    }
  }
  const value = (key: string) => headers.find(([k]) => k === key)?.[1] ?? "";
  const text = decoder(value("encoding"));
  // Headers were split as latin1 (byte-preserving); idents are text in the commit's encoding.
  const decode = (s: string) => text.decode(Buffer.from(s, "latin1"));
  const author = parseIdent(decode(value("author")));
  const committer = parseIdent(decode(value("committer")));
  return {
    oid,
    parents: headers.filter(([k]) => k === "parent").map(([, v]) => v),
    commitTime: committer.time,
    signature: value("gpgsig") || value("gpgsig-sha256"),
    author,
    committer,
    message: text.decode(messageBytes),
  };
}

/** The API's Commit for a parsed object; trailers only when asked for. */
export function toApiCommit(c: ParsedCommit, o: { trailers?: boolean } = {}): Commit {
  return {
    id: c.oid,
    shortId: c.oid.slice(0, SHORT_ID_LENGTH),
    title: commitTitle(c.message),
    message: c.message,
    authorName: c.author.name,
    authorEmail: c.author.email,
    authoredDate: c.author.date,
    committerName: c.committer.name,
    committerEmail: c.committer.email,
    committedDate: c.committer.date,
    parentIds: c.parents,
    ...(o.trailers === false ? { trailers: {}, extendedTrailers: {} } : trailerMaps(parseTrailers(c.message))),
  };
}

/** Reads the commit `rev` names (a tag is peeled), or null when it names no commit. */
export async function readCommitObject(p: Pick<CatFileProcess, "read">, rev: string): Promise<ParsedCommit | null> {
  const obj = await p.read(`${rev}^{commit}`);
  return obj?.type === "commit" ? parseCommitObject(obj.oid, obj.data) : null;
}

/** The commit `rev` names through the pool, or null. */
export function findCommitObject(pool: CatFilePool, gitDir: string, rev: string): Promise<ParsedCommit | null> {
  if (!isPlausibleRevision(rev)) return Promise.resolve(null);
  return pool.use(gitDir, (p) => readCommitObject(p, rev));
}

/**
 * The repository directory and the commit a request's revision names (sha, branch or tag):
 * `404 Repository Not Found` / `404 Commit Not Found` otherwise.
 */
export async function requireCommit(deps: RepoDeps, diskPath: string, revision: string): Promise<{ dir: string; commit: ParsedCommit }> {
  const dir = deps.storages.resolve(diskPath);
  if (!(await isRepository(dir))) throw notFound("Repository");
  const commit = await findCommitObject(deps.catFile, dir, revision);
  if (!commit) throw notFound("Commit");
  return { dir, commit };
}

/**
 * Max-heap of commits by committer time; equal times come out in insertion order. This is the
 * order `git log` (without --date-order/--topo-order) emits: each emitted commit's unseen
 * parents join the queue by date after any commits of the same date already in it.
 */
class DateQueue {
  private readonly heap: { c: ParsedCommit; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(c: ParsedCommit): void {
    const h = this.heap;
    h.push({ c, seq: this.seq++ });
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  pop(): ParsedCommit | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < h.length && this.before(l, best)) best = l;
        if (r < h.length && this.before(r, best)) best = r;
        if (best === i) break;
        [h[i], h[best]] = [h[best]!, h[i]!];
        i = best;
      }
    }
    return top?.c;
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.c.commitTime !== y.c.commitTime ? x.c.commitTime > y.c.commitTime : x.seq < y.seq;
  }
}

/**
 * The first `count` commits `git log <start>` would print, read through one cat-file process.
 * Parents of each emitted commit are read together (one pipelined round trip).
 */
export async function walkCommits(pool: CatFilePool, gitDir: string, start: ParsedCommit, count: number): Promise<ParsedCommit[]> {
  return pool.use(gitDir, async (p) => {
    const out: ParsedCommit[] = [];
    const seen = new Set([start.oid]);
    const queue = new DateQueue();
    queue.push(start);
    while (queue.size && out.length < count) {
      const c = queue.pop()!;
      out.push(c);
      const unseen: string[] = [];
      for (const oid of c.parents) {
        if (seen.has(oid)) continue;
        seen.add(oid);
        unseen.push(oid);
      }
      // A missing parent (shallow or broken repository) ends that line of history instead of
      // failing the listing.
      const parents = await Promise.all(unseen.map((oid) => readCommitObject(p, oid)));
      for (const parent of parents) if (parent) queue.push(parent);
    }
    return out;
  });
}

/**
 * The API's commits (with trailers) for full commit ids, keyed by id: from the cache of
 * immutable answers, the misses read through the cat-file pool (one pipelined round trip).
 * Ids that name no commit are left out.
 */
export async function readApiCommits(pool: CatFilePool, gitDir: string, shas: Iterable<string>): Promise<Map<string, Commit>> {
  const found = new Map<string, Commit>();
  const misses: string[] = [];
  for (const sha of new Set(shas)) {
    const hit = objectCaches.commits.get(sha);
    if (hit) found.set(sha, hit);
    else if (sha) misses.push(sha);
  }
  if (!misses.length) return found;
  const read = await pool.use(gitDir, (p) => Promise.all(misses.map((sha) => p.read(sha))));
  for (const obj of read) {
    if (obj?.type !== "commit") continue;
    const commit = toApiCommit(parseCommitObject(obj.oid, obj.data));
    objectCaches.commits.set(obj.oid, commit);
    found.set(obj.oid, commit);
  }
  return found;
}
