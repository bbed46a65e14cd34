// `pnpm --filter @quarry/bench profile-summary <dir>`: what the CPU profiles of a bench run
// (BENCH_CPU_PROF=<dir>: `node --cpu-prof` on the stack process, one profile per thread) spent
// their time on — self time by where the code lives (a dependency, a Quarry package or service,
// Node's internals, GC) and the hottest functions — so a note can say what stands between an
// endpoint and its floor.
import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  /** CLOCK_MONOTONIC microseconds of the first sample. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A measured run of the bench (main.ts's profileWindow). */
interface Window {
  name: string;
  startUs: number;
  endUs: number;
}

/** Where a function lives: a dependency, a Quarry package or service, Node itself, or V8's own buckets. */
export function bucketOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:internal";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const quarry = /\/(services|packages)\/([^/]+)\//.exec(url);
  if (quarry) return `${quarry[1]}/${quarry[2]}`;
  return url;
}

/** Self time (ms) per bucket and per function of one profile, within `window` when given; idle time left out. */
export function summarize(profile: Profile, window?: Window): { total: number; buckets: Map<string, number>; functions: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.startUs || at > window.endUs)) return;
    const node = byId.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === "(idle)") return;
    total += dt;
    const { functionName, url, lineNumber } = node.callFrame;
    const bucket = bucketOf(url, functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + dt);
    const fn = `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""} [${bucket}]`;
    functions.set(fn, (functions.get(fn) ?? 0) + dt);
  });
  return { total, buckets, functions };
}

const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

/** Which thread a profile is: the Quarry service its code mostly is (the main thread runs several). */
function threadLabel(buckets: Map<string, number>): string {
  const quarry = top(buckets, 50).filter(([b]) => b.startsWith("services/"));
  if (buckets.has("services/gateway") && quarry[0]?.[0] === "services/gateway") return "gateway thread";
  if (quarry[0]?.[0] === "services/repo-service") return "repo-service thread";
  return quarry.length ? `main thread (${quarry.map(([b]) => b.slice("services/".length)).join(", ")})` : "loader thread";
}

function print(title: string, r: ReturnType<typeof summarize>, seconds?: number): void {
  const busy = seconds ? ` (${((100 * r.total) / (seconds * 1000)).toFixed(0)}% of one core)` : "";
  console.log(`\n${title}: ${Math.round(r.total)} ms busy${busy}`);
  for (const [b, ms] of top(r.buckets, 12)) console.log(`  ${((100 * ms) / r.total).toFixed(1).padStart(5)}%  ${b}`);
  console.log("  hottest functions (self time):");
  for (const [f, ms] of top(r.functions, 12)) console.log(`  ${((100 * ms) / r.total).toFixed(1).padStart(5)}%  ${f}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: profile-summary <directory of .cpuprofile files>");
  const profiles = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => ({ file: f, profile: JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Profile }));
  const windowsFile = path.join(dir, "windows.json");
  const windows: Window[] = fs.existsSync(windowsFile) ? JSON.parse(fs.readFileSync(windowsFile, "utf8")) : [];
  if (!windows.length) {
    for (const { file, profile } of profiles) {
      const r = summarize(profile);
      if (r.total >= 100) print(`${file}, ${threadLabel(r.buckets)}`, r);
    }
  }
  for (const w of windows) {
    console.log(`\n=== ${w.name} ===`);
    for (const { file, profile } of profiles) {
      const r = summarize(profile, w);
      // Only the profiles of the process running then, and threads that did work.
      if (r.total < 50) continue;
      print(`${threadLabel(summarize(profile).buckets)} [${file}]`, r, (w.endUs - w.startUs) / 1e6);
    }
  }
}
