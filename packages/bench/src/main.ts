// `pnpm bench`: request throughput and latency through the full stack (gateway → gRPC → services).
// Repository reads run twice: against the normal stack (pooled `git cat-file` processes) and
// against a baseline stack started with GIT_CATFILE_POOL_SIZE=0 (one git process per read).
// BENCH_DURATION (seconds per run, default 10) and BENCH_ONLY (substring of scenario names) narrow it.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const here = path.dirname(fileURLToPath(import.meta.url));
const token = `glpat-bench-${randomBytes(12).toString("hex")}`;
const durationSec = Number(process.env.BENCH_DURATION ?? 10);
const only = process.env.BENCH_ONLY ?? "";
const headers = { "PRIVATE-TOKEN": token, "Content-Type": "application/json" };

interface Stack {
  url: string;
  child: ChildProcess;
}

async function startStack(catFilePoolSize?: number): Promise<Stack> {
  const child = fork(path.join(here, "stack-child.ts"), {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      BENCH_ROOT_TOKEN: token,
      BENCH_DATABASE_URL: process.env.DATABASE_URL ?? "",
      BENCH_CATFILE_POOL_SIZE: catFilePoolSize === undefined ? "" : String(catFilePoolSize),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url: string = await new Promise((resolve, reject) => {
    child.once("message", (m) => resolve((m as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`stack exited with ${code}`)));
  });
  return { url, child };
}

async function stopStack(s: Stack): Promise<void> {
  s.child.send("stop");
  await new Promise((r) => s.child.once("exit", r));
}

async function api(url: string, pathname: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}/api/v4${pathname}`, { method: body ? "POST" : "GET", headers, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A project with some history: 40 commits over 50 files in a few directories, and 30 branches. */
async function fixture(url: string): Promise<number> {
  const project = (await api(url, "/projects", { name: "bench", initialize_with_readme: true })) as { id: number };
  const id = project.id;
  for (let i = 0; i < 40; i++) {
    const actions =
      i === 0
        ? Array.from({ length: 50 }, (_, f) => ({ action: "create", file_path: `dir${f % 5}/file${f}.txt`, content: `file ${f}\n`.repeat(20) }))
        : [{ action: "update", file_path: `dir${i % 5}/file${i}.txt`, content: `file ${i}, revision ${i}\n`.repeat(20) }];
    await api(url, `/projects/${id}/repository/commits`, { branch: "main", commit_message: `Commit ${i}\n\nBody of commit ${i}.`, actions });
  }
  for (let b = 0; b < 30; b++) await api(url, `/projects/${id}/repository/branches`, { branch: `feature-${b}`, ref: "main" });
  return id;
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
  ];
  return all.filter((s) => s.name.includes(only));
}

type Row = { scenario: string; mode: string; connections: number; rps: number; p50: number; p90: number; p99: number; errors: number };

async function measure(url: string, list: Scenario[], mode: string, rows: Row[]): Promise<void> {
  for (const s of list) {
    for (const connections of [1, 32]) {
      // Warm-up: token cache, gRPC channels, JIT, process pools.
      await autocannon({ url: url + s.path, headers, connections, duration: 2 });
      const r = await autocannon({ url: url + s.path, headers, connections, duration: durationSec });
      const row = {
        scenario: s.name,
        mode,
        connections,
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p90: r.latency.p90,
        p99: r.latency.p99,
        errors: r.errors + r.non2xx,
      };
      rows.push(row);
      console.log(`${s.name.padEnd(18)} ${mode.padEnd(9)} c=${String(connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`);
    }
  }
}

const rows: Row[] = [];
const pooled = await startStack();
try {
  const id = await fixture(pooled.url);
  await measure(pooled.url, scenarios(id), "pooled", rows);
} finally {
  await stopStack(pooled);
}
const repositoryScenarios = (id: number) => scenarios(id).filter((s) => s.repository);
if (repositoryScenarios(0).length) {
  const baseline = await startStack(0);
  try {
    const id = await fixture(baseline.url);
    await measure(baseline.url, repositoryScenarios(id), "baseline", rows);
  } finally {
    await stopStack(baseline);
  }
}

console.log("\n| scenario | reads | connections | req/s | p50 ms | p90 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const reads = r.mode === "baseline" ? "one git spawn per read" : "pooled cat-file";
  console.log(`| ${r.scenario} | ${reads} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.errors} |`);
}
