// The merge request list (`GET /projects/:id/merge_requests`, GitLab's reference architecture measures
// it: 157 ms p90 at 200 requests/s) through the whole stack, and its floor: a minimal Node HTTP server
// answering the same page with one SQL query on collab-service's table (no gRPC, no authorization,
// no users, labels or counts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import pg from "pg";

export interface ListRow {
  scenario: string;
  mode: string;
  connections: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
}

type Api = (pathname: string, body?: unknown, method?: string) => Promise<unknown>;

/** 60 merge requests (a commit each on its own branch, two labels, an assignee), 20 of them closed. */
export async function mergeRequestFixture(api: Api, projectId: number): Promise<void> {
  const me = (await api("/user")) as { id: number };
  for (let i = 0; i < 60; i++) {
    const branch = `mr-${i}`;
    await api(`/projects/${projectId}/repository/commits`, {
      branch,
      start_branch: "main",
      commit_message: `Change ${i}`,
      actions: [{ action: "create", file_path: `mr/${i}.txt`, content: `change ${i}\n` }],
    });
    const mr = (await api(`/projects/${projectId}/merge_requests`, {
      source_branch: branch,
      target_branch: "main",
      title: `Merge request ${i}`,
      description: `Closes nothing. Change ${i}.\n\n- [x] done\n- [ ] to do`,
      labels: i % 2 ? "bug,backend" : "feature,frontend",
      assignee_ids: [me.id],
    })) as { iid: number };
    if (i % 3 === 0) await api(`/projects/${projectId}/merge_requests/${mr.iid}`, { state_event: "close" }, "PUT");
  }
}

/** A server answering GET with the project's 20 newest merge requests, straight from PostgreSQL. */
async function startFloorServer(collabDatabaseUrl: string, projectId: number): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: collabDatabaseUrl, max: 10 });
  const server = http.createServer(async (_req, res) => {
    try {
      const { rows } = await pool.query(
        `SELECT id, iid, project_id, title, description, state, source_branch, target_branch, author_id,
                draft, merge_status, head_sha AS sha, created_at, updated_at
           FROM merge_requests WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
        [projectId],
      );
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(rows));
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}

async function run(url: string, headers: Record<string, string>, o: { connections: number; rate?: number; seconds: number }) {
  const options = { url, headers, connections: o.connections, duration: o.seconds, ...(o.rate ? { overallRate: o.rate } : {}) };
  await autocannon({ ...options, duration: 2 }); // warm-up: token cache, gRPC channels, JIT, pools
  return autocannon(options);
}

/**
 * Measures the list through the stack and through the floor server: closed-loop at 1 and 32
 * connections, and open-loop at GitLab's 200 requests/s.
 */
export async function measureMergeRequestList(
  stackUrl: string,
  headers: Record<string, string>,
  projectId: number,
  collabDatabaseUrl: string,
  seconds: number,
): Promise<ListRow[]> {
  const rows: ListRow[] = [];
  const floor = await startFloorServer(collabDatabaseUrl, projectId);
  try {
    const targets = [
      { mode: "full stack", url: `${stackUrl}/api/v4/projects/${projectId}/merge_requests` },
      { mode: "SQL floor", url: floor.url },
    ];
    for (const load of [{ connections: 1 }, { connections: 32 }, { connections: 32, rate: 200 }]) {
      for (const t of targets) {
        const r = await run(t.url, headers, { ...load, seconds });
        const row: ListRow = {
          scenario: load.rate ? "MR list @200 req/s" : "MR list",
          mode: t.mode,
          connections: load.connections,
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p90: r.latency.p90,
          p99: r.latency.p99,
          errors: r.errors + r.non2xx,
        };
        rows.push(row);
        console.log(
          `${row.scenario.padEnd(18)} ${row.mode.padEnd(10)} c=${String(row.connections).padStart(2)}  ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p90 ${row.p90} ms  p99 ${row.p99} ms  errors ${row.errors}`,
        );
      }
    }
  } finally {
    await floor.close();
  }
  return rows;
}
