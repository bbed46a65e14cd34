// The floors the read scenarios are held against (issue 18), measured in the same run:
// - "cat-file floor": floor-child.ts's one-`git cat-file --batch` server answering the same blob as
//   the raw-file endpoint (and the 40 KB file for file JSON 40 KB), at 1 and 32 connections;
// - "constant floor": floor-child.ts's constant-response server (Node's HTTP alone), at 1 and 32;
// - "git CLI": `git diff <tagA> <tagB>` and `git blame --porcelain <rev> -- <file>` on the same bare
//   repository, run one after the other (a process each, as a shell would), for compare and blame.
// ratioTable prints each endpoint's req/s against its floor and whether the issue's goal holds.
import { execFile, fork } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import autocannon from "autocannon";
import type { ListRow as Row } from "./merge-requests.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const git = promisify(execFile);

export const CAT_FILE_FLOOR = "cat-file floor";
export const CONSTANT_FLOOR = "constant floor";
export const CLI_FLOOR = "git CLI";

const print = (row: Row) =>
  console.log(
    `${row.scenario.padEnd(18)} ${row.mode.padEnd(9)} c=${String(row.connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`,
  );

export interface FloorPlan {
  gitDir: string;
  seconds: number;
  /** Revisions (`<rev>:<path>`) the cat-file floor serves, each measured as scenario `name`. */
  blobs: { name: string; rev: string }[];
  constant: boolean;
  /** git CLI runs, each measured as scenario `name`. */
  cli: { name: string; args: string[] }[];
}

async function closedLoop(url: string, connections: number, seconds: number): Promise<autocannon.Result> {
  await autocannon({ url, connections, duration: 2 }); // warm-up: JIT, git's object cache
  return autocannon({ url, connections, duration: seconds });
}

/** A result row from an autocannon run. */
export const fromAutocannon = (scenario: string, mode: string, connections: number, r: autocannon.Result): Row => ({
  scenario,
  mode,
  connections,
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p90: r.latency.p90,
  p99: r.latency.p99,
  errors: r.errors + r.non2xx,
});

/** Runs `git <args>` one after the other for `seconds` (after a one-second warm-up). */
async function sequentialRuns(gitDir: string, scenario: string, args: string[], seconds: number): Promise<Row> {
  const once = async () => {
    await git("git", ["--git-dir", gitDir, ...args], { maxBuffer: 256 << 20 });
  };
  for (const warmEnd = performance.now() + 1000; performance.now() < warmEnd; ) await once();
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    try {
      await once();
      latencies.push(performance.now() - t0);
    } catch {
      errors++;
    }
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!) : 0);
  return {
    scenario,
    mode: CLI_FLOOR,
    connections: 1,
    rps: Math.round((latencies.length / seconds) * 10) / 10,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    errors,
  };
}

/** Measures the floors of `plan` and answers their rows (also printed as they come). */
export async function measureFloors(plan: FloorPlan): Promise<Row[]> {
  const rows: Row[] = [];
  const add = (row: Row) => {
    rows.push(row);
    print(row);
  };
  if (plan.blobs.length || plan.constant) {
    const child = fork(path.join(here, "floor-child.ts"), {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, BENCH_FLOOR_GIT_DIR: plan.gitDir },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    try {
      const urls: { catFileUrl: string; constantUrl: string } = await new Promise((resolve, reject) => {
        child.once("message", (m) => resolve(m as { catFileUrl: string; constantUrl: string }));
        child.once("exit", (code) => reject(new Error(`floor server exited with ${code}`)));
      });
      for (const b of plan.blobs)
        for (const c of [1, 32])
          add(fromAutocannon(b.name, CAT_FILE_FLOOR, c, await closedLoop(`${urls.catFileUrl}/${encodeURIComponent(b.rev)}`, c, plan.seconds)));
      if (plan.constant) for (const c of [1, 32]) add(fromAutocannon("constant", CONSTANT_FLOOR, c, await closedLoop(urls.constantUrl, c, plan.seconds)));
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.send("stop");
      await exited;
    }
  }
  for (const run of plan.cli) add(await sequentialRuns(plan.gitDir, run.name, run.args, plan.seconds));
  return rows;
}

interface Goal {
  scenarios: string[];
  /** The floor row's mode and scenario. */
  floor: { mode: string; scenario: string | ((scenario: string) => string) };
  /** The connections the goal is judged at. */
  at: number;
  /** Only the goal's connection count is compared (the git CLI floor is sequential). */
  onlyAt?: boolean;
  goal: string;
  holds: (r: Row, f: Row) => boolean;
}

/** Issue 18's goals. `blobFloor` names the cat-file floor row of each file scenario. */
export function goals(blobFloor: (scenario: string) => string): Goal[] {
  return [
    {
      scenarios: ["raw file", "file (JSON)", "file (JSON) 40 KB", "tree"],
      floor: { mode: CAT_FILE_FLOOR, scenario: blobFloor },
      at: 32,
      goal: "≥ 25% of the cat-file floor, p99 < 50 ms",
      holds: (r, f) => r.rps >= 0.25 * f.rps && r.p99 < 50,
    },
    {
      scenarios: ["GET /user", "GET /projects/:id"],
      floor: { mode: CONSTANT_FLOOR, scenario: "constant" },
      at: 32,
      goal: "≥ 5,000 req/s",
      holds: (r) => r.rps >= 5000,
    },
    {
      scenarios: ["commits list", "branches list", "tags list", "issues list", "MR list", "single commit"],
      floor: { mode: CONSTANT_FLOOR, scenario: "constant" },
      at: 32,
      goal: "≥ 2,000 req/s",
      holds: (r) => r.rps >= 2000,
    },
    {
      scenarios: ["compare", "blame"],
      floor: { mode: CLI_FLOOR, scenario: (s) => `git ${s === "compare" ? "diff" : "blame"}` },
      at: 1,
      onlyAt: true,
      goal: "within 1.5× of the git CLI (≥ 0.67× its runs/s)",
      holds: (r, f) => r.rps * 1.5 >= f.rps,
    },
  ];
}

/** The stack's row of a scenario: the pooled read scenarios, or the MR list's full-stack run. */
const stackRow = (rows: Row[], scenario: string, connections: number) =>
  rows.find((r) => r.scenario === scenario && (r.mode === "pooled" || r.mode === "full stack") && r.connections === connections);

/** Prints, for each measured endpoint, its req/s against its floor's and whether the goal holds. */
export function ratioTable(rows: Row[], blobFloor: (scenario: string) => string): void {
  const lines: string[] = [];
  for (const g of goals(blobFloor)) {
    for (const scenario of g.scenarios) {
      const floorScenario = typeof g.floor.scenario === "string" ? g.floor.scenario : g.floor.scenario(scenario);
      for (const connections of g.onlyAt ? [g.at] : [1, 32]) {
        const r = stackRow(rows, scenario, connections);
        if (!r) continue;
        const f = rows.find((x) => x.mode === g.floor.mode && x.scenario === floorScenario && x.connections === connections);
        const percent = f?.rps ? (100 * r.rps) / f.rps : undefined;
        const ratio = percent === undefined ? "—" : `${percent.toFixed(percent < 10 ? 2 : 1)}%`;
        const verdict = connections !== g.at ? "" : !f ? "no floor measured" : g.holds(r, f) ? "yes" : "NO";
        lines.push(
          `| ${scenario} | ${connections} | ${r.rps} | ${r.p99} | ${g.floor.mode}${floorScenario === "constant" ? "" : ` (${floorScenario})`} | ${f ? f.rps : "—"} | ${f ? f.p99 : "—"} | ${ratio} | ${connections === g.at ? g.goal : ""} | ${verdict} |`,
        );
      }
    }
  }
  if (!lines.length) return;
  console.log(
    "\nRatios to the floors (issue 18's goals are judged at the connections shown with a goal)\n\n| endpoint | connections | req/s | p99 ms | floor | floor req/s | floor p99 ms | ratio | goal | holds |\n|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const l of lines) console.log(l);
}
