import type { NextFunction, Request, Response } from "express";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayDeps } from "../deps.ts";
import { authorizeProject, cachedProject } from "../routes/v4/project-access.ts";
import { accessEvictions, applyAccessChange } from "./access-evictions.ts";
import { AuthorizationCache, authorizationKey } from "./authorization-cache.ts";
import type { Principal } from "./principal.ts";
import { TokenCache } from "./token-cache.ts";
import { UserCache } from "./user-cache.ts";

function project(id: number, fullPath: string, ns: { kind: string; ownerId: number } = { kind: "group", ownerId: 0 }): Project {
  return { id, pathWithNamespace: fullPath, namespace: { id: 100 + id, kind: ns.kind, ownerId: ns.ownerId } } as unknown as Project;
}
const answer = (p: Project, accessLevel = 30) => ({ project: p, accessLevel });

afterEach(() => {
  vi.useRealTimers();
});

describe("AuthorizationCache", () => {
  it("keeps answers for the TTL, bounded in size (oldest out first)", () => {
    vi.useFakeTimers();
    const cache = new AuthorizationCache(1_000, 2);
    cache.set("a", answer(project(1, "g/a")), cache.generation, 5, "1");
    expect(cache.get("a")?.project.id).toBe(1);
    vi.advanceTimersByTime(1_001);
    expect(cache.get("a")).toBeUndefined();

    cache.set("a", answer(project(1, "g/a")), cache.generation, 5, "1");
    cache.set("b", answer(project(2, "g/b")), cache.generation, 5, "2");
    cache.set("c", answer(project(3, "g/c")), cache.generation, 5, "3");
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")?.project.id).toBe(3);
  });

  it("keeps nothing with a TTL of 0, and freezes what it keeps", () => {
    const off = new AuthorizationCache(0);
    off.set("a", answer(project(1, "g/a")), off.generation, 5, "1");
    expect(off.get("a")).toBeUndefined();
    const cache = new AuthorizationCache(10_000);
    cache.set("a", answer(project(1, "g/a")), cache.generation, 5, "1");
    expect(Object.isFrozen(cache.get("a")!.project.namespace)).toBe(true);
  });

  it("drops an answer fetched while something was evicted (it may predate the change)", () => {
    const cache = new AuthorizationCache(10_000);
    const before = cache.generation;
    cache.evictProjects([9]);
    cache.set("a", answer(project(1, "g/a")), before, 5, "1");
    expect(cache.get("a")).toBeUndefined();
    cache.set("a", answer(project(1, "g/a")), cache.generation, 5, "1");
    expect(cache.get("a")).toBeDefined();
  });

  it("evicts by project, by caller or personal namespace owner, by the route's :id, or everything", () => {
    const cache = new AuthorizationCache(10_000);
    const fill = () => {
      cache.clear();
      cache.set("p1-u5", answer(project(1, "G/A")), cache.generation, 5, "1");
      cache.set("p1-u6-path", answer(project(1, "G/A")), cache.generation, 6, "g/a");
      cache.set("p2-u6", answer(project(2, "owner7/b", { kind: "user", ownerId: 7 })), cache.generation, 6, "2");
      cache.set("p3-anon", answer(project(3, "g/c")), cache.generation, 0, "G%2FC-raw");
    };
    const left = () => ["p1-u5", "p1-u6-path", "p2-u6", "p3-anon"].filter((k) => cache.get(k));

    fill();
    cache.evictProjects([1]);
    expect(left()).toEqual(["p2-u6", "p3-anon"]);
    fill();
    cache.evictUsers([6]);
    expect(left()).toEqual(["p1-u5", "p3-anon"]);
    fill();
    cache.evictUsers([7]); // owns the personal namespace of project 2
    expect(left()).toEqual(["p1-u5", "p1-u6-path", "p3-anon"]);
    fill();
    cache.evictProjectRef("g/A"); // the resolved path, case-insensitively
    expect(left()).toEqual(["p2-u6", "p3-anon"]);
    fill();
    cache.evictProjectRef("2");
    expect(left()).toEqual(["p1-u5", "p1-u6-path", "p3-anon"]);
    fill();
    cache.evictProjectRef("g%2fc-raw"); // the key as given
    expect(left()).toEqual(["p1-u5", "p1-u6-path", "p2-u6"]);
    fill();
    cache.clear();
    expect(left()).toEqual([]);
  });
});

describe("quarry.access.changed", () => {
  const principal = (userId: number): Principal => ({ userId, username: "u", name: "u", email: "", isAdmin: false, tokenId: userId, scopes: ["api"] });
  function caches() {
    const authCache = new AuthorizationCache(10_000);
    const tokenCache = new TokenCache(10_000);
    authCache.set("p1", answer(project(1, "g/a")), authCache.generation, 5, "1");
    authCache.set("p2", answer(project(2, "g/b")), authCache.generation, 6, "2");
    tokenCache.set("t5", principal(5));
    tokenCache.set("t6", principal(6));
    return { authCache, tokenCache, userCache: new UserCache(10_000) };
  }

  it("evicts the projects, the users' answers and the users' cached tokens", () => {
    const c = caches();
    applyAccessChange(c, { project_ids: [1] });
    expect([c.authCache.get("p1"), c.authCache.get("p2")?.project.id]).toEqual([undefined, 2]);
    applyAccessChange(c, { user_ids: [6] });
    expect(c.authCache.get("p2")).toBeUndefined();
    expect([c.tokenCache.get("t5")?.userId, c.tokenCache.get("t6")]).toEqual([5, undefined]);
  });

  it("evicts everything on a namespace change", () => {
    const c = caches();
    applyAccessChange(c, { namespace_ids: [42] });
    expect(c.authCache.size).toBe(0);
    expect(c.tokenCache.get("t5")?.userId).toBe(5);
  });
});

describe("this gateway's writes", () => {
  function run(method: string, path: string) {
    const authCache = new AuthorizationCache(10_000);
    const tokenCache = new TokenCache(10_000);
    authCache.set("p1", answer(project(1, "g/a")), authCache.generation, 5, "1");
    authCache.set("p2", answer(project(2, "g/b")), authCache.generation, 6, "g/b");
    const next = vi.fn() as unknown as NextFunction;
    accessEvictions({ authCache, tokenCache, userCache: new UserCache(10_000) })({ method, path } as Request, { end: () => {} } as unknown as Response, next);
    expect(next).toHaveBeenCalledOnce();
    return [authCache.get("p1")?.project.id, authCache.get("p2")?.project.id];
  }

  it("evict before they run: the project under /projects/:id, the user under /users/:id, anything under /groups", () => {
    expect(run("GET", "/projects/1")).toEqual([1, 2]);
    expect(run("HEAD", "/groups/1")).toEqual([1, 2]);
    expect(run("PUT", "/projects/1")).toEqual([undefined, 2]);
    expect(run("POST", "/projects/g%2FB/members")).toEqual([1, undefined]);
    expect(run("DELETE", "/users/6")).toEqual([1, undefined]);
    expect(run("POST", "/users/5/block")).toEqual([undefined, 2]);
    expect(run("PUT", "/groups/9")).toEqual([undefined, undefined]);
    expect(run("POST", "/projects")).toEqual([1, 2]);
    expect(run("POST", "/projects/%E0%A4%A/star")).toEqual([1, 2]);
  });
});

describe("a write's own authorization", () => {
  it("is evicted again as the write's response goes out, so the next read sees the write", () => {
    const authCache = new AuthorizationCache(10_000);
    const userCache = new UserCache(10_000);
    const ended: unknown[] = [];
    const res = { end: (...args: unknown[]) => ended.push(args) } as unknown as Response;
    accessEvictions({ authCache, tokenCache: new TokenCache(10_000), userCache })(
      { method: "POST", path: "/projects/1/approvals", principal: { userId: 5 } } as unknown as Request,
      res,
      vi.fn() as unknown as NextFunction,
    );
    // The route authorizes (caching the project as it is before the write), then writes and answers.
    const before = authCache.generation;
    authCache.set("p1", answer(project(1, "g/a")), before, 5, "1");
    expect(authCache.get("p1")?.project.id).toBe(1);
    res.end("{}");
    expect(ended).toEqual([["{}"]]);
    expect(authCache.get("p1")).toBeUndefined();
    // A read that started during the write is not kept either.
    authCache.set("p1", answer(project(1, "g/a")), before, 5, "1");
    expect(authCache.get("p1")).toBeUndefined();
  });
});

describe("authorizeProject through the cache", () => {
  function setup() {
    const calls: { action: string; project: string }[] = [];
    let refuse: Error | undefined;
    const deps = {
      authCache: new AuthorizationCache(10_000),
      identity: {
        Authorize: async (r: { action: string; project: string }) => {
          calls.push({ action: r.action, project: r.project });
          if (refuse) throw refuse;
          return { project: project(7, "g/p"), accessLevel: 30 };
        },
      },
    } as unknown as GatewayDeps;
    const req = (userId?: number, isAdmin = false) =>
      ({ requestId: "r", params: { id: "7" }, principal: userId ? { userId, isAdmin, scopes: ["api"] } : undefined }) as unknown as Request;
    return { deps, calls, req, refuse: (e: Error | undefined) => (refuse = e) };
  }

  it("asks identity once per caller, action and :id; a warm request makes no identity call", async () => {
    const t = setup();
    expect((await authorizeProject(t.deps, t.req(5), "push_code")).accessLevel).toBe(30);
    expect((await authorizeProject(t.deps, t.req(5), "push_code")).project.id).toBe(7);
    expect(t.calls).toHaveLength(1);
    await authorizeProject(t.deps, t.req(5), "read_repository");
    await authorizeProject(t.deps, t.req(5, true), "push_code");
    await authorizeProject(t.deps, t.req(6), "push_code");
    await authorizeProject(t.deps, t.req(), "read_repository");
    await cachedProject(t.deps, t.req(), "g/p");
    await cachedProject(t.deps, t.req(), "g/p");
    expect(t.calls).toEqual([
      { action: "push_code", project: "7" },
      { action: "read_repository", project: "7" },
      { action: "push_code", project: "7" },
      { action: "push_code", project: "7" },
      { action: "read_repository", project: "7" },
      { action: "read_project", project: "g/p" },
    ]);
    expect(t.deps.authCache.get(authorizationKey(0, false, "read_project", "g/p"))?.project.id).toBe(7);
  });

  it("never keeps a refusal: each one asks identity again", async () => {
    const t = setup();
    t.refuse(Object.assign(new Error("not found"), { code: 5 }));
    await expect(authorizeProject(t.deps, t.req(5), "read_repository")).rejects.toThrow("not found");
    await expect(authorizeProject(t.deps, t.req(5), "read_repository")).rejects.toThrow("not found");
    expect(t.calls).toHaveLength(2);
    t.refuse(undefined);
    expect((await authorizeProject(t.deps, t.req(5), "read_repository")).project.id).toBe(7);
    expect(t.calls).toHaveLength(3);
  });
});
