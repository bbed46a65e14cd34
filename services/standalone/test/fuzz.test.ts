// The gateway under generated hostile input: every route its router serves (found from the
// router, so new routes are covered without being listed here), called anonymously, as a user
// and as an administrator with hostile paths, query strings and bodies. Each answer must be a
// client error or success (never 5xx), show no internals, and come within the gateway's
// deadline; afterwards the stack must still answer.
//
// Seeded and bounded: the seed is printed; QUARRY_FUZZ_SEED=<seed> replays a run, and
// QUARRY_FUZZ_ROUTE=<part of "METHOD /path"> narrows it to matching routes.
import { createApp } from "@quarry/gateway";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import {
  INTERNAL_DETAIL,
  destroysFixtures,
  hostileRequest,
  routeName,
  routesOf,
  send,
  type Fixtures,
  type HostileRequest,
  type Outcome,
} from "./fuzz-requests.ts";

/** The gateway's deadline for a service call (the stack's default): no request may take longer. */
const DEADLINE_MS = 10_000;
/** Generated requests per route. */
const RUNS_PER_ROUTE = Number(process.env.QUARRY_FUZZ_RUNS ?? 40);
/** Past this, the remaining routes get only a few requests each: the run stays bounded in time. */
const BUDGET_MS = 150_000;

const seed = process.env.QUARRY_FUZZ_SEED ? Number(process.env.QUARRY_FUZZ_SEED) : (Math.random() * 2 ** 31) | 0;

/** A route's own seed, stable whatever other routes exist or are filtered out. */
function routeSeed(name: string): number {
  let h = seed | 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h | 0;
}

interface Failure {
  route: string;
  request: HostileRequest;
  outcome?: Outcome;
  problem: string;
  replay: string;
}

let s: TestStack;
let fixtures: Fixtures;

beforeAll(async () => {
  s = await startTestStack();
  const user = await createUserWithToken(s);
  const project = await s.api("/projects", { method: "POST", token: user.token, json: { name: "fuzzed", initialize_with_readme: true } });
  const group = await s.api("/groups", { method: "POST", token: user.token, json: { name: "fuzzed-group", path: "fuzzed-group" } });
  const p = (await project.json()) as { id: number; path_with_namespace: string };
  const g = (await group.json()) as { id: number; full_path: string };
  await s.api(`/projects/${p.id}/repository/tags`, { method: "POST", token: user.token, json: { tag_name: "v1", ref: "main" } });
  fixtures = {
    projectId: p.id,
    projectPath: p.path_with_namespace,
    groupId: g.id,
    groupPath: g.full_path,
    userId: user.id,
    tokens: { user: user.token, admin: s.rootToken },
  };
});

afterAll(async () => {
  await s?.destroy();
});

describe("fuzzing every gateway route", () => {
  it(
    "answers hostile requests with no 5xx, no internals, within the deadline, and stays up",
    async () => {
      console.log(`fuzz seed ${seed} (replay: QUARRY_FUZZ_SEED=${seed})`);
      const filter = process.env.QUARRY_FUZZ_ROUTE;
      const routes = routesOf(createApp({ config: { maxBodyBytes: 1 } } as Parameters<typeof createApp>[0])).filter(
        (r) => !filter || routeName(r).includes(filter),
      );
      expect(routes.length).toBeGreaterThan(filter ? 0 : 100);
      // Routes serving several paths at once (express path arrays) are walked path by path.
      if (!filter) expect(routes.map(routeName)).toEqual(expect.arrayContaining(["GET /api/v4/groups/:id/wikis", "GET /api/v4/projects/:id/wikis"]));

      const failures: Failure[] = [];
      const statusClasses: Record<string, number> = {};
      const statuses: Record<number, number> = {};
      let total = 0;
      const started = Date.now();

      for (const route of routes) {
        const name = routeName(route);
        // Past the time budget, the remaining routes still get a few requests each.
        const runs = Date.now() - started < BUDGET_MS ? RUNS_PER_ROUTE : Math.min(RUNS_PER_ROUTE, 3);
        const routeSeedValue = routeSeed(name);
        let failure: Omit<Failure, "replay"> | undefined;
        const result = await fc.check(
          fc.asyncProperty(hostileRequest(route, fixtures), async (request) => {
            fc.pre(!destroysFixtures(request, fixtures));
            total++;
            let outcome: Outcome;
            try {
              outcome = await send(s.url, request, DEADLINE_MS + 5_000);
            } catch (err) {
              failure = { route: name, request, problem: `no answer: ${(err as Error).message}` };
              return false;
            }
            statusClasses[`${Math.floor(outcome.status / 100)}xx`] = (statusClasses[`${Math.floor(outcome.status / 100)}xx`] ?? 0) + 1;
            statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
            const problem =
              outcome.status >= 500
                ? `status ${outcome.status}`
                : INTERNAL_DETAIL.test(outcome.body)
                  ? `internal detail in the body`
                  : outcome.ms >= DEADLINE_MS
                    ? `took ${Math.round(outcome.ms)} ms (deadline ${DEADLINE_MS} ms)`
                    : null;
            if (problem) failure = { route: name, request, outcome, problem };
            return problem === null;
          }),
          // No shrinking (each step is a request); the first failure of a route is reported with its replay.
          { seed: routeSeedValue, numRuns: runs, endOnFailure: true },
        );
        if (failure) {
          failures.push({
            ...failure,
            replay: `QUARRY_FUZZ_SEED=${seed} QUARRY_FUZZ_ROUTE='${name}' (fast-check seed ${routeSeedValue}, path ${result.counterexamplePath ?? "?"})`,
          });
        }
      }

      const version = await s.api("/version");
      console.log(
        `fuzz: ${total} requests over ${routes.length} routes in ${Math.round((Date.now() - started) / 1000)} s, ${JSON.stringify(statusClasses)} (${JSON.stringify(statuses)}), ${failures.length} failing routes, seed ${seed}`,
      );
      const report = failures.map(
        (f) =>
          `${f.route}: ${f.problem}\n  ${f.request.method} ${f.request.path.slice(0, 300)} (${f.request.auth}; body: ${f.request.bodyLabel.slice(0, 300)})\n` +
          (f.outcome ? `  -> ${f.outcome.status} ${f.outcome.body.slice(0, 300)}\n` : "") +
          `  replay: ${f.replay}`,
      );
      expect(version.status).toBe(200);
      expect(report, `seed ${seed}`).toEqual([]);
    },
    // The budget, the last requests' deadlines, and the stack's start and stop.
    BUDGET_MS + 4 * DEADLINE_MS,
  );
});
