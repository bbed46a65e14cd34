import type { NextFunction, Request, Response } from "express";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayDeps } from "../deps.ts";
import { cachedUser } from "../routes/v4/user-lookup.ts";
import { accessEvictions, applyAccessChange } from "./access-evictions.ts";
import { AuthorizationCache } from "./authorization-cache.ts";
import { TokenCache } from "./token-cache.ts";
import { UserCache } from "./user-cache.ts";

const user = (id: number, name = `u${id}`) => ({ id, username: name, identities: [] }) as unknown as User;

afterEach(() => {
  vi.useRealTimers();
});

describe("UserCache", () => {
  it("keeps answers for the TTL, bounded, frozen; drops one fetched across an eviction", () => {
    vi.useFakeTimers();
    const cache = new UserCache(1_000, 2);
    cache.set(1, user(1), cache.generation);
    expect(cache.get(1)?.username).toBe("u1");
    expect(Object.isFrozen(cache.get(1))).toBe(true);
    vi.advanceTimersByTime(1_001);
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, user(1), cache.generation);
    cache.set(2, user(2), cache.generation);
    cache.set(3, user(3), cache.generation);
    expect([cache.get(1), cache.get(2)?.id, cache.get(3)?.id]).toEqual([undefined, 2, 3]);
    const before = cache.generation;
    cache.evict([9]);
    cache.set(4, user(4), before);
    expect(cache.get(4)).toBeUndefined();
    expect(new UserCache(0).get(1)).toBeUndefined();
  });
});

describe("user answers are evicted", () => {
  function caches() {
    const userCache = new UserCache(10_000);
    userCache.set(5, user(5), userCache.generation);
    userCache.set(6, user(6), userCache.generation);
    return { authCache: new AuthorizationCache(10_000), tokenCache: new TokenCache(10_000), userCache };
  }
  const left = (c: ReturnType<typeof caches>) => [5, 6].filter((id) => c.userCache.get(id));

  it("by quarry.access.changed naming the user, and by any namespace change", () => {
    let c = caches();
    applyAccessChange(c, { user_ids: [6] });
    expect(left(c)).toEqual([5]);
    applyAccessChange(c, { project_ids: [1] });
    expect(left(c)).toEqual([5]);
    c = caches();
    applyAccessChange(c, { namespace_ids: [3] });
    expect(left(c)).toEqual([]);
  });

  it("by this gateway's writes: the caller's own, /users/:id's, and everything under /groups", () => {
    const run = (method: string, path: string, principal?: number) => {
      const c = caches();
      const next = vi.fn() as unknown as NextFunction;
      accessEvictions(c)({ method, path, principal: principal ? { userId: principal } : undefined } as Request, {} as Response, next);
      expect(next).toHaveBeenCalledOnce();
      return left(c);
    };
    expect(run("GET", "/user", 5)).toEqual([5, 6]);
    expect(run("POST", "/user/emails", 5)).toEqual([6]);
    expect(run("PUT", "/users/6", 1)).toEqual([5]);
    expect(run("POST", "/groups/3/verified_domains", 1)).toEqual([]);
    expect(run("POST", "/projects", undefined)).toEqual([5, 6]);
  });
});

describe("cachedUser", () => {
  it("asks identity once per user; an unknown user is never kept", async () => {
    const calls: number[] = [];
    const deps = {
      userCache: new UserCache(10_000),
      identity: {
        GetUser: async (r: { id: number }) => {
          calls.push(r.id);
          if (r.id === 404) throw Object.assign(new Error("404 User Not Found"), { code: 5 });
          return user(r.id);
        },
      },
    } as unknown as GatewayDeps;
    const req = { requestId: "r", principal: { userId: 5, isAdmin: false } } as unknown as Request;
    expect((await cachedUser(deps, req, 5)).username).toBe("u5");
    expect((await cachedUser(deps, req, 5)).username).toBe("u5");
    await cachedUser(deps, req, 6);
    await expect(cachedUser(deps, req, 404)).rejects.toThrow("404");
    await expect(cachedUser(deps, req, 404)).rejects.toThrow("404");
    expect(calls).toEqual([5, 6, 404, 404]);
  });
});
