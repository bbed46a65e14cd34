// `pnpm bench`: request throughput and latency through the full stack (gateway → gRPC → services).
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const here = path.dirname(fileURLToPath(import.meta.url));
const token = `glpat-bench-${randomBytes(12).toString("hex")}`;
const durationSec = Number(process.env.BENCH_DURATION ?? 10);

const child = fork(path.join(here, "stack-child.ts"), {
  execArgv: ["--import", "tsx"],
  env: { ...process.env, BENCH_ROOT_TOKEN: token, BENCH_DATABASE_URL: process.env.DATABASE_URL ?? "" },
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const url: string = await new Promise((resolve, reject) => {
  child.once("message", (m) => resolve((m as { url: string }).url));
  child.once("exit", (code) => reject(new Error(`stack exited with ${code}`)));
});

const headers = { "PRIVATE-TOKEN": token, "Content-Type": "application/json" };
const created = await fetch(`${url}/api/v4/projects`, {
  method: "POST",
  headers,
  body: JSON.stringify({ name: "bench", initialize_with_readme: true }),
});
const project = (await created.json()) as { id: number };

interface Scenario {
  name: string;
  path: string;
}
const scenarios: Scenario[] = [
  { name: "GET /projects/:id", path: `/api/v4/projects/${project.id}` },
  { name: "GET /user", path: "/api/v4/user" },
];

type Row = { scenario: string; connections: number; rps: number; p50: number; p90: number; p99: number; errors: number };
const rows: Row[] = [];
for (const s of scenarios) {
  for (const connections of [1, 32]) {
    // Warm-up: token cache, gRPC channels, JIT.
    await autocannon({ url: url + s.path, headers, connections, duration: 2 });
    const r = await autocannon({ url: url + s.path, headers, connections, duration: durationSec });
    rows.push({
      scenario: s.name,
      connections,
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    });
    console.log(`${s.name.padEnd(22)} c=${String(connections).padStart(2)}  ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  errors ${r.errors + r.non2xx}`);
  }
}
console.log("\n| scenario | connections | req/s | p50 ms | p90 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.errors} |`);
child.send("stop");
await new Promise((r) => child.once("exit", r));
