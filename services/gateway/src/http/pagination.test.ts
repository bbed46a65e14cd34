import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { pageRequest, setCountlessPaginationHeaders, setPaginationHeaders } from "./pagination.ts";

function run(url: string, info: { total: number; page: number; perPage: number }) {
  const headers: Record<string, string> = {};
  const res = { setHeader: (k: string, v: string) => (headers[k] = v) } as unknown as Response;
  setPaginationHeaders({ originalUrl: url } as Request, res, info, "https://git.example.com");
  return headers;
}

describe("pagination headers", () => {
  it("describes a middle page with all GitLab headers and Link relations", () => {
    const h = run("/api/v4/projects?per_page=20&page=2&search=x", { total: 45, page: 2, perPage: 20 });
    expect(h).toMatchObject({ "X-Page": "2", "X-Per-Page": "20", "X-Total": "45", "X-Total-Pages": "3", "X-Next-Page": "3", "X-Prev-Page": "1" });
    const links = Object.fromEntries(h.Link!.split(", ").map((l) => [/rel="(\w+)"/.exec(l)![1], /<([^>]+)>/.exec(l)![1]]));
    expect(Object.keys(links).sort()).toEqual(["first", "last", "next", "prev"]);
    expect(links.next).toBe("https://git.example.com/api/v4/projects?per_page=20&page=3&search=x");
    expect(links.last).toContain("page=3");
    expect(links.first).toContain("page=1");
  });

  it("leaves next/prev empty at the edges and counts an empty list as one page", () => {
    expect(run("/api/v4/users", { total: 0, page: 1, perPage: 20 })).toMatchObject({ "X-Total-Pages": "1", "X-Next-Page": "", "X-Prev-Page": "" });
    const last = run("/api/v4/users?page=3", { total: 45, page: 3, perPage: 20 });
    expect(last["X-Next-Page"]).toBe("");
    expect(last.Link).not.toContain('rel="next"');
  });

  it("normalises page inputs (default 20, at most 100)", () => {
    expect(pageRequest({})).toEqual({ page: 1, perPage: 20 });
    expect(pageRequest({ page: 0, per_page: 500 })).toEqual({ page: 1, perPage: 100 });
  });

  it("keeps a page beyond 32-bit offsets past the last page instead of wrapping it", () => {
    expect(pageRequest({ page: 2 ** 31, per_page: 2 ** 31 })).toEqual({ page: 21474836, perPage: 100 });
    const { page, perPage } = pageRequest({ page: 2 ** 53 - 1, per_page: 20 });
    expect(page * perPage + 1).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it("leaves out a Link header too large for clients to read", () => {
    const h = run(`/api/v4/projects?filter=${"f".repeat(3000)}`, { total: 45, page: 2, perPage: 20 });
    expect(h.Link).toBeUndefined();
    expect(h).toMatchObject({ "X-Page": "2", "X-Next-Page": "3", "X-Prev-Page": "1" });
  });
});

describe("countless pagination headers", () => {
  function countless(url: string, info: { page: number; perPage: number; hasMore: boolean }) {
    const headers: Record<string, string> = {};
    const res = { setHeader: (k: string, v: string) => (headers[k] = v) } as unknown as Response;
    setCountlessPaginationHeaders({ originalUrl: url } as Request, res, info, "https://git.example.com");
    return headers;
  }

  it("has no totals and no last link; next only when more items exist", () => {
    const h = countless("/api/v4/projects/1/repository/commits?page=2&per_page=5", { page: 2, perPage: 5, hasMore: true });
    expect(h).toEqual({ "X-Page": "2", "X-Per-Page": "5", "X-Next-Page": "3", "X-Prev-Page": "1", Link: expect.any(String) });
    expect(h.Link!.split(", ").map((l) => /rel="(\w+)"/.exec(l)![1])).toEqual(["prev", "next", "first"]);
    expect(h.Link).toContain('<https://git.example.com/api/v4/projects/1/repository/commits?page=3&per_page=5>; rel="next"');
    const end = countless("/api/v4/projects/1/repository/commits", { page: 1, perPage: 20, hasMore: false });
    expect(end).toMatchObject({ "X-Next-Page": "", "X-Prev-Page": "" });
    expect(end.Link).toBe('<https://git.example.com/api/v4/projects/1/repository/commits?page=1&per_page=20>; rel="first"');
  });
});
