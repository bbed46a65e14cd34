// `pnpm bench`: request throughput and latency through the full stack (gateway → gRPC → services).
// Repository reads run twice: against the normal stack (pooled `git cat-file` processes) and
// against a baseline stack started with GIT_CATFILE_POOL_SIZE=0 (one git process per read).
// File commits run through the stack and, as their floor, as git's own plumbing doing the same
// work on a bare repository (no HTTP, no database, no events); a mixed scenario puts 20% writes
// among reads and compares the reads with a read-only run.
// The read scenarios run on a generated history (history.ts: 3,200 commits, 128 tags, a 40 KB file
// with 400 changes) pushed into the stack, and are held against floors measured in the same run
// (floors.ts: a one-`git cat-file --batch` server, a constant-response server, the git CLI for
// compare and blame) in a final ratio table with issue 18's goals.
// BENCH_DURATION (seconds per run, default 10) and BENCH_ONLY (substrings of scenario names, comma
// separated, e.g. "file commit,mixed") narrow it; BENCH_CPU_PROF=<dir> profiles the stack
// (`pnpm --filter @quarry/bench profile-summary <dir>` sums the profiles up).
import { execFile, fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { fromAutocannon, measureFloors, ratioTable } from "./floors.ts";
import { BIG_FILE, ensureHistory, SMALL_FILE } from "./history.ts";
import { measureMergeRequestList, mergeRequestFixture } from "./merge-requests.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const token = `glpat-bench-${randomBytes(12).toString("hex")}`;
const durationSec = Number(process.env.BENCH_DURATION ?? 10);
const only = (process.env.BENCH_ONLY ?? "").split(",");
/** Whether BENCH_ONLY selects the scenario `name`. */
const selected = (name: string) => only.some((o) => name.includes(o));
const headers = { "PRIVATE-TOKEN": token, "Content-Type": "application/json" };

interface Stack {
  url: string;
  /** collab-service's database (the merge request list's SQL floor reads it). */
  collabDatabaseUrl: string;
  child: ChildProcess;
}

async function startStack(catFilePoolSize?: number): Promise<Stack> {
  const cpuProf = process.env.BENCH_CPU_PROF;
  const child = fork(path.join(here, "stack-child.ts"), {
    // BENCH_CPU_PROF=<dir>: a CPU profile of every thread of the stack (profile-summary.ts reads them).
    execArgv: ["--import", "tsx", ...(cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProf)}`] : [])],
    env: {
      ...process.env,
      BENCH_ROOT_TOKEN: token,
      BENCH_DATABASE_URL: process.env.DATABASE_URL ?? "",
      BENCH_CATFILE_POOL_SIZE: catFilePoolSize === undefined ? "" : String(catFilePoolSize),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const started: { url: string; collabDatabaseUrl: string } = await new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; collabDatabaseUrl: string }));
    child.once("exit", (code) => reject(new Error(`stack exited with ${code}`)));
  });
  return { ...started, child };
}

/**
 * Waits until the stack is idle: the fixture's push leaves work behind (push events of every
 * ref, statistics, webhooks) that would otherwise be measured with the first scenario. Idle =
 * under 10% of one core in two half-second samples of the process's CPU time (/proc).
 */
async function settle(s: Stack, timeoutMs = 120_000): Promise<void> {
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${s.child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime (fields 14 and 15 of stat), in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  if (!fs.existsSync(`/proc/${s.child.pid}/stat`)) return;
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  let last = cpuMs();
  while (quiet < 2 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs();
    quiet = now - last < 50 ? quiet + 1 : 0;
    last = now;
  }
}

async function stopStack(s: Stack): Promise<void> {
  s.child.send("stop");
  await new Promise((r) => s.child.once("exit", r));
}

async function api(url: string, pathname: string, body?: unknown, method = body ? "POST" : "GET"): Promise<unknown> {
  const res = await fetch(`${url}/api/v4${pathname}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The generated history (history.ts) every read scenario reads, and the refs they name. */
const history = await ensureHistory();
const gitOut = async (...args: string[]) => (await promisify(execFile)("git", ["--git-dir", history.gitDir, ...args])).stdout.trim();
/** Two adjacent tags, 25 commits apart, for compare. */
const [compareFrom, compareTo] = [history.tags[100]!, history.tags[101]!];
/** A commit a hundred commits below main's head, for the single-commit scenario. */
const singleCommit = await gitOut("rev-parse", "main~100");

/**
 * A project holding the generated history (3,200 commits, 128 annotated tags, 30 branches; see
 * history.ts), pushed with `git push --mirror` over the stack's smart HTTP as the bench's root
 * user, and 30 issues.
 */
async function fixture(url: string): Promise<number> {
  const project = (await api(url, "/projects", { name: "bench" })) as { id: number; http_url_to_repo: string };
  const me = (await api(url, "/user")) as { username: string };
  const remote = new URL(project.http_url_to_repo);
  remote.username = me.username;
  remote.password = token;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-bench-home-"));
  try {
    await promisify(execFile)("git", ["-c", "credential.helper=", "--git-dir", history.gitDir, "push", "--quiet", "--mirror", remote.toString()], {
      env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" },
      maxBuffer: 16 << 20,
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  // The stack holds the history: main at the generated head, every tag.
  const main = (await api(url, `/projects/${project.id}/repository/branches/main`)) as { commit: { id: string } };
  if (main.commit.id !== (await gitOut("rev-parse", "main"))) throw new Error(`pushed main is ${main.commit.id}, not the generated head`);
  const last = history.tags.at(-1)!;
  await api(url, `/projects/${project.id}/repository/tags/${last}`);
  for (let i = 0; i < 30; i++)
    await api(url, `/projects/${project.id}/issues`, { title: `Issue ${i}`, description: `Something to do, ${i}.`, labels: i % 2 ? "bug" : "feature" });
  return project.id;
}

interface Scenario {
  name: string;
  path: string;
  /** Also measured against the one-spawn-per-read baseline. */
  repository?: boolean;
}

function scenarios(id: number): Scenario[] {
  const all: Scenario[] = [
    { name: "GET /projects/:id", path: `/api/v4/projects/${id}` },
    { name: "GET /user", path: "/api/v4/user" },
    { name: "raw file", path: `/api/v4/projects/${id}/repository/files/dir1%2Ffile1.txt/raw?ref=main`, repository: true },
    { name: "file (JSON)", path: `/api/v4/projects/${id}/repository/files/dir1%2Ffile1.txt?ref=main`, repository: true },
    { name: "tree", path: `/api/v4/projects/${id}/repository/tree?path=dir1&per_page=20`, repository: true },
    { name: "commits list", path: `/api/v4/projects/${id}/repository/commits?ref_name=main&per_page=20`, repository: true },
    { name: "branches list", path: `/api/v4/projects/${id}/repository/branches?per_page=20`, repository: true },
    // Issue 18: the generated history's other endpoints (tags, one commit, compare of adjacent tags, blame of the 40 KB file, file JSON of it) and issues.
    { name: "file (JSON) 40 KB", path: `/api/v4/projects/${id}/repository/files/${encodeURIComponent(BIG_FILE)}?ref=main`, repository: true },
    { name: "tags list", path: `/api/v4/projects/${id}/repository/tags?per_page=20`, repository: true },
    { name: "single commit", path: `/api/v4/projects/${id}/repository/commits/${singleCommit}`, repository: true },
    { name: "compare", path: `/api/v4/projects/${id}/repository/compare?from=${compareFrom}&to=${compareTo}`, repository: true },
    { name: "blame", path: `/api/v4/projects/${id}/repository/files/${encodeURIComponent(BIG_FILE)}/blame?ref=main`, repository: true },
    { name: "issues list", path: `/api/v4/projects/${id}/issues?per_page=20` },
    { name: "single branch", path: `/api/v4/projects/${id}/repository/branches/main` },
  ];
  return all.filter((s) => selected(s.name));
}

type Row = { scenario: string; mode: string; connections: number; rps: number; p50: number; p90: number; p99: number; errors: number };

async function measure(url: string, list: Scenario[], mode: string, rows: Row[]): Promise<void> {
  for (const s of list) {
    for (const connections of [1, 32]) {
      // Warm-up: token cache, gRPC channels, JIT, process pools.
      await autocannon({ url: url + s.path, headers, connections, duration: 2 });
      const startUs = process.hrtime.bigint() / 1000n;
      const r = await autocannon({ url: url + s.path, headers, connections, duration: durationSec });
      profileWindow(`${s.name} ${mode} c=${connections}`, startUs);
      // autocannon leaves up to `connections` requests in flight in the stack (long for compare
      // and blame): one more request of the same kind waits behind them, so the next run starts on
      // an idle stack.
      await (await fetch(url + s.path, { headers })).arrayBuffer();
      const row = fromAutocannon(s.name, mode, connections, r);
      rows.push(row);
      console.log(
        `${s.name.padEnd(18)} ${mode.padEnd(9)} c=${String(connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`,
      );
    }
  }
}

/**
 * With BENCH_CPU_PROF, each measured run's time window (CLOCK_MONOTONIC microseconds, the clock
 * V8's profiles use) goes to <dir>/windows.json, so profile-summary.ts can tell what the stack
 * spent each scenario's CPU on.
 */
function profileWindow(name: string, startUs: bigint): void {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return;
  const file = path.join(path.resolve(dir), "windows.json");
  const windows = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as unknown[]) : [];
  windows.push({ name, startUs: Number(startUs), endUs: Number(process.hrtime.bigint() / 1000n) });
  fs.writeFileSync(file, JSON.stringify(windows, null, 1));
}

/** Latencies (ms) of the requests a load loop made, by kind, and how many failed. */
class Samples {
  readonly latencies = new Map<string, number[]>();
  errors = 0;

  add(kind: string, ms: number): void {
    (this.latencies.get(kind) ?? this.latencies.set(kind, []).get(kind)!).push(ms);
  }

  row(scenario: string, mode: string, connections: number, kind: string, seconds: number): Row {
    const sorted = [...(this.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    const at = (q: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : 0);
    return { scenario, mode, connections, rps: Math.round(sorted.length / seconds), p50: at(0.5), p90: at(0.9), p99: at(0.99), errors: this.errors };
  }
}

/**
 * `connections` loops, each sending one request after the other for `seconds`; `step` makes one
 * request of loop `conn` (its `n`th) and names its kind, or throws for a failure.
 */
async function loops(connections: number, seconds: number, step: (conn: number, n: number) => Promise<string>): Promise<Samples> {
  const samples = new Samples();
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, conn) => {
      for (let n = 0; performance.now() < end; n++) {
        const t0 = performance.now();
        try {
          samples.add(await step(conn, n), performance.now() - t0);
        } catch {
          samples.errors++;
        }
      }
    }),
  );
  return samples;
}

let written = 0;

/** POSTs a new file on `branch`: one commit through gateway, identity and repo services. */
async function commitFile(url: string, id: number, branch: string): Promise<string> {
  const n = written++;
  const filePath = encodeURIComponent(`writes/d${n % 20}/f${n}.txt`);
  const res = await fetch(`${url}/api/v4/projects/${id}/repository/files/${filePath}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ branch, commit_message: `Write ${n}`, content: `line one of ${n}\nline two\n` }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`commit: ${res.status}`);
  return "write";
}

async function readFile(url: string, id: number, branch: string): Promise<string> {
  const res = await fetch(`${url}/api/v4/projects/${id}/repository/files/dir1%2Ffile1.txt/raw?ref=${branch}`, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`read: ${res.status}`);
  return "read";
}

/** Each loop writes to its own branch (the fixture's feature-N), so writers never race. */
const ownBranch = (conn: number) => `feature-${conn}`;

async function measureWrites(url: string, id: number, rows: Row[]): Promise<void> {
  const log = (row: Row) => {
    rows.push(row);
    console.log(
      `${row.scenario.padEnd(18)} ${row.mode.padEnd(9)} c=${String(row.connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`,
    );
  };
  if (selected("file commit")) {
    for (const connections of [1, 16]) {
      await loops(connections, 2, (conn) => commitFile(url, id, ownBranch(conn)));
      log(
        (await loops(connections, durationSec, (conn) => commitFile(url, id, ownBranch(conn)))).row("file commit", "stack", connections, "write", durationSec),
      );
    }
  }
  if (selected("mixed")) {
    const connections = 16;
    await loops(connections, 2, (conn) => readFile(url, id, ownBranch(conn)));
    const readOnly = await loops(connections, durationSec, (conn) => readFile(url, id, ownBranch(conn)));
    log(readOnly.row("read-only reads", "stack", connections, "read", durationSec));
    // One request in five is a write, spread evenly over the loops.
    const mixed = await loops(connections, durationSec, (conn, n) =>
      (conn + n) % 5 === 0 ? commitFile(url, id, ownBranch(conn)) : readFile(url, id, ownBranch(conn)),
    );
    log(mixed.row("mixed: reads", "stack", connections, "read", durationSec));
    log(mixed.row("mixed: writes", "stack", connections, "write", durationSec));
  }
}

const git = promisify(execFile);

/**
 * The floor of a file commit: git's plumbing making the same commit on a bare repository shaped
 * like the fixture (blob, the tree through a temporary index, commit, compare-and-swap of the
 * branch), one process per step as a shell script would, each loop on its own branch.
 */
async function gitFloor(rows: Row[]): Promise<void> {
  if (!selected("file commit")) return;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-bench-git-"));
  const gitDir = path.join(root, "repo.git");
  const run = async (args: string[], o: { input?: string; env?: Record<string, string> } = {}) => {
    const child = git("git", ["--git-dir", gitDir, ...args], { env: { ...process.env, ...identity, ...o.env } });
    if (o.input !== undefined) child.child.stdin!.end(o.input);
    return (await child).stdout.trim();
  };
  const identity = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
  try {
    await git("git", ["init", "--quiet", "--bare", gitDir]);
    const index = (conn: number) => ({ GIT_INDEX_FILE: path.join(root, `index-${conn}`) });
    const files = Array.from({ length: 50 }, (_, f) => [`dir${f % 5}/file${f}.txt`, `file ${f}\n`.repeat(20)] as const);
    const blobs = await Promise.all(files.map(([, content]) => run(["hash-object", "-w", "--stdin"], { input: content })));
    await run(["update-index", "--add", "-z", "--index-info"], { env: index(-1), input: files.map(([p], i) => `100644 ${blobs[i]}\t${p}\0`).join("") });
    const tree = await run(["write-tree"], { env: index(-1) });
    const base = await run(["commit-tree", tree, "-m", "Fixture"]);
    const heads = Array.from({ length: 16 }, () => base);
    await Promise.all(heads.map((h, conn) => run(["update-ref", `refs/heads/${ownBranch(conn)}`, h])));
    let n = 0;
    const commit = async (conn: number) => {
      const i = n++;
      const blob = await run(["hash-object", "-w", "--stdin"], { input: `line one of ${i}\nline two\n` });
      await run(["read-tree", heads[conn]!], { env: index(conn) });
      await run(["update-index", "--add", "-z", "--index-info"], { env: index(conn), input: `100644 ${blob}\twrites/d${i % 20}/f${i}.txt\0` });
      const newTree = await run(["write-tree"], { env: index(conn) });
      const created = await run(["commit-tree", newTree, "-p", heads[conn]!, "-m", `Write ${i}`]);
      await run(["update-ref", `refs/heads/${ownBranch(conn)}`, created, heads[conn]!]);
      heads[conn] = created;
      return "write";
    };
    for (const connections of [1, 16]) {
      await loops(connections, 2, commit);
      const row = (await loops(connections, durationSec, commit)).row("file commit", "git floor", connections, "write", durationSec);
      rows.push(row);
      console.log(
        `${row.scenario.padEnd(18)} ${row.mode.padEnd(9)} c=${String(row.connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`,
      );
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
const pooled = await startStack();
try {
  const id = await fixture(pooled.url);
  await settle(pooled);
  await measure(pooled.url, scenarios(id), "pooled", rows);
  await measureWrites(pooled.url, id, rows);
  if (selected("MR list")) {
    await mergeRequestFixture((p, body, method) => api(pooled.url, p, body, method), id);
    rows.push(...(await measureMergeRequestList(pooled.url, headers, id, pooled.collabDatabaseUrl, durationSec)));
  }
} finally {
  await stopStack(pooled);
}
await gitFloor(rows);
// The floors of issue 18, for the scenarios this run measured.
const measured = new Set(scenarios(0).map((s) => s.name));
if (selected("MR list")) measured.add("MR list");
/** The blob the cat-file floor serves for a file scenario (raw file, file JSON and tree: the small file). */
const blobFloor = (scenario: string) => (scenario === "file (JSON) 40 KB" ? BIG_FILE : SMALL_FILE);
const blobScenarios = ["raw file", "file (JSON)", "file (JSON) 40 KB", "tree"].filter((s) => measured.has(s));
rows.push(
  ...(await measureFloors({
    gitDir: history.gitDir,
    seconds: durationSec,
    blobs: [...new Set(blobScenarios.map(blobFloor))].map((file) => ({ name: file, rev: `main:${file}` })),
    constant: [...measured].some((s) => !blobScenarios.includes(s) && s !== "compare" && s !== "blame"),
    cli: [
      ...(measured.has("compare") ? [{ name: "git diff", args: ["diff", compareFrom, compareTo] }] : []),
      ...(measured.has("blame") ? [{ name: "git blame", args: ["blame", "--porcelain", "main", "--", BIG_FILE] }] : []),
    ],
  })),
);
const repositoryScenarios = (id: number) => scenarios(id).filter((s) => s.repository);
if (repositoryScenarios(0).length) {
  const baseline = await startStack(0);
  try {
    const id = await fixture(baseline.url);
    await settle(baseline);
    await measure(baseline.url, repositoryScenarios(id), "baseline", rows);
  } finally {
    await stopStack(baseline);
  }
}

const MODES: Record<string, string> = {
  baseline: "one git spawn per read",
  pooled: "pooled cat-file",
  stack: "full stack",
  "git floor": "git plumbing, no server (floor)",
  "cat-file floor": "node:http + one git cat-file --batch (floor)",
  "constant floor": "node:http constant response (floor)",
  "git CLI": "git CLI, sequential runs (floor)",
};
console.log("\n| scenario | run | connections | req/s | p50 ms | p90 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|---|");
for (const r of rows)
  console.log(`| ${r.scenario} | ${MODES[r.mode] ?? r.mode} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.errors} |`);
const floor = (c: number) => rows.find((r) => r.scenario === "file commit" && r.mode === "git floor" && r.connections === c);
for (const r of rows.filter((r) => r.scenario === "file commit" && r.mode === "stack")) {
  const f = floor(r.connections);
  if (f?.rps)
    console.log(
      `file commit, c=${r.connections}: ${(r.rps / f.rps).toFixed(2)}× the floor's throughput, p50 ${(r.p50 / Math.max(1, f.p50)).toFixed(2)}× its latency`,
    );
}
for (const r of rows.filter((r) => r.scenario.startsWith("MR list") && r.mode === "full stack")) {
  const f = rows.find((x) => x.scenario === r.scenario && x.mode === "SQL floor" && x.connections === r.connections);
  if (f?.rps)
    console.log(
      `${r.scenario}, c=${r.connections}: ${(r.rps / f.rps).toFixed(2)}× the SQL floor's throughput, p90 ${(r.p90 / Math.max(1, f.p90)).toFixed(2)}× its latency (GitLab's reference: p90 157 ms at 200 req/s)`,
    );
}
const readOnly = rows.find((r) => r.scenario === "read-only reads");
const mixedReads = rows.find((r) => r.scenario === "mixed: reads");
if (readOnly && mixedReads)
  console.log(
    `reads among 20% writes: p50 ${(mixedReads.p50 / Math.max(1, readOnly.p50)).toFixed(2)}×, p99 ${(mixedReads.p99 / Math.max(1, readOnly.p99)).toFixed(2)}× the read-only run`,
  );
ratioTable(rows, blobFloor);
