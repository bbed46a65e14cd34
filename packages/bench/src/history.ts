// A deterministic repository with a real history for `pnpm bench`, written by `git fast-import`
// from a generated stream (a few seconds for thousands of commits): 3,200 commits on `main` over
// 300 files in 10 directories, a 41,000-byte text file (`src/big.txt`) changed by 400 of them,
// 128 annotated tags (one every 25 commits) and 30 branches `feature-0`…`feature-29`.
// Fixed authors, dates and a seeded pseudo-random sequence make every object id the same on every
// machine. The result is cached under the OS temp dir by a hash of this file (the generator) and
// its parameters, so reruns reuse it.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface HistoryShape {
  commits: number;
  /** Files besides the big one and README.md, spread over `directories`. */
  files: number;
  directories: number;
  /** An annotated tag every `tagEvery` commits. */
  tagEvery: number;
  /** The big file changes every `bigEvery` commits. */
  bigEvery: number;
  /** Lines of the big file (50 bytes each). */
  bigLines: number;
  branches: number;
}

export const DEFAULT_SHAPE: HistoryShape = { commits: 3200, files: 300, directories: 10, tagEvery: 25, bigEvery: 8, bigLines: 820, branches: 30 };

/** The file whose history blame walks. */
export const BIG_FILE = "src/big.txt";
/** A small file in a directory (the raw file, file JSON and tree scenarios read it and its directory). */
export const SMALL_FILE = "dir1/file1.txt";

export interface History {
  /** The bare repository. */
  gitDir: string;
  /** The cache key: a hash of the generator's source and the shape. */
  hash: string;
  /** Tag names in history order (tags[i] is on commit (i + 1) × tagEvery). */
  tags: string[];
  branches: string[];
  shape: HistoryShape;
}

const BIG_LINE = 50;

/** The tag name of the `k`th tag (0-based): v1.0.0 … v1.9.0, v2.0.0, … */
const tagName = (k: number) => `v${1 + Math.floor(k / 10)}.${k % 10}.0`;

/** A fixed-width line (49 characters and a newline) of the big file. */
function bigLine(line: number, revision: number): string {
  const text = `line ${line} revision ${revision} `;
  return `${text}${"abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).slice(0, BIG_LINE - 1 - text.length)}\n`;
}

const smallPath = (f: number, directories: number) => `dir${f % directories}/file${f}.txt`;

function smallContent(f: number, revision: number): string {
  let s = "";
  for (let l = 0; l < 12; l++) s += `file ${f} line ${l} revision ${revision}\n`;
  return s;
}

/** mulberry32: a small seeded PRNG, the same numbers everywhere. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fast-import stream of the whole history, in chunks. */
export function* fastImportStream(shape: HistoryShape): Generator<string> {
  const random = prng(20260301);
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const modify = (p: string, content: string) => `M 100644 inline ${p}\n${data(content)}`;
  const epoch = 1_700_000_000;
  const who = (n: number, t: number) => `Developer ${n % 7} <dev${n % 7}@example.com> ${t} +0000`;
  const big = Array.from({ length: shape.bigLines }, () => 0);
  const bigText = () => big.map((rev, l) => bigLine(l, rev)).join("");
  const branchAt = new Map<number, string[]>();
  for (let b = 0; b < shape.branches; b++) {
    const at = shape.commits - 1 - b * 10;
    branchAt.set(at, [...(branchAt.get(at) ?? []), `feature-${b}`]);
  }
  for (let i = 0; i < shape.commits; i++) {
    const t = epoch + i * 600;
    let s = `commit refs/heads/main\nmark :${i + 1}\nauthor ${who(i, t)}\ncommitter ${who(i + 3, t)}\n`;
    s += data(`Commit ${i}: ${i === 0 ? "initial import" : `change ${i}`}\n\nBody of commit ${i}.\n`);
    if (i === 0) {
      s += modify("README.md", "# Bench history\n\nA generated repository for `pnpm bench`.\n");
      for (let f = 0; f < shape.files; f++) s += modify(smallPath(f, shape.directories), smallContent(f, 0));
      s += modify(BIG_FILE, bigText());
    } else {
      const changed = 1 + Math.floor(random() * 3);
      for (let c = 0; c < changed; c++) {
        const f = Math.floor(random() * shape.files);
        s += modify(smallPath(f, shape.directories), smallContent(f, i));
      }
      if (i % shape.bigEvery === 0) {
        // A few lines each time, anywhere in the file, so blame finds hundreds of commits.
        const lines = 1 + Math.floor(random() * 6);
        for (let c = 0; c < lines; c++) big[Math.floor(random() * shape.bigLines)] = i;
        s += modify(BIG_FILE, bigText());
      }
    }
    yield s;
    if ((i + 1) % shape.tagEvery === 0) {
      const k = (i + 1) / shape.tagEvery - 1;
      yield `tag ${tagName(k)}\nfrom :${i + 1}\ntagger ${who(k, t + 60)}\n${data(`Release ${tagName(k)}\n`)}`;
    }
    for (const b of branchAt.get(i) ?? []) yield `reset refs/heads/${b}\nfrom :${i + 1}\n\n`;
  }
}

/** The cache key of a history: the generator's own source and the shape. */
export function historyHash(shape: HistoryShape = DEFAULT_SHAPE): string {
  const source = fs.readFileSync(fileURLToPath(import.meta.url));
  return createHash("sha256").update(source).update(JSON.stringify(shape)).digest("hex").slice(0, 16);
}

function describe(gitDir: string, hash: string, shape: HistoryShape): History {
  const tags = Array.from({ length: Math.floor(shape.commits / shape.tagEvery) }, (_, k) => tagName(k));
  const branches = ["main", ...Array.from({ length: shape.branches }, (_, b) => `feature-${b}`)];
  return { gitDir, hash, tags, branches, shape };
}

/** Writes the history into a new bare repository at `gitDir` (which must not exist). */
export async function writeHistory(gitDir: string, shape: HistoryShape = DEFAULT_SHAPE): Promise<void> {
  await run("git", ["init", "--quiet", "--bare", "--initial-branch=main", gitDir]);
  const child = spawn("git", ["--git-dir", gitDir, "fast-import", "--quiet", "--done"], { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number>((resolve) => child.on("close", resolve));
  for (const chunk of fastImportStream(shape)) {
    if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once("drain", r));
  }
  child.stdin.end("done\n");
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr}`);
  await run("git", ["--git-dir", gitDir, "symbolic-ref", "HEAD", "refs/heads/main"]);
}

/**
 * The cached history for `shape` (generated on first use into `<tmp>/quarry-bench-history-<hash>`,
 * written beside it and renamed into place so an interrupted run never leaves half a repository).
 */
export async function ensureHistory(shape: HistoryShape = DEFAULT_SHAPE, root = os.tmpdir()): Promise<History> {
  const hash = historyHash(shape);
  const dir = path.join(root, `quarry-bench-history-${hash}`);
  const gitDir = path.join(dir, "repo.git");
  if (!fs.existsSync(gitDir)) {
    const scratch = fs.mkdtempSync(path.join(root, `quarry-bench-history-${hash}-tmp-`));
    try {
      await writeHistory(path.join(scratch, "repo.git"), shape);
      try {
        fs.renameSync(scratch, dir);
      } catch (err) {
        // Another run generated it meanwhile: the same content, keep theirs.
        if (!fs.existsSync(gitDir)) throw err;
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return describe(gitDir, hash, shape);
}
