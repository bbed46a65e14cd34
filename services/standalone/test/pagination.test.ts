import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let user: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  user = await createUserWithToken(s);
  for (let i = 0; i < 45; i++) {
    const res = await s.api("/projects", { method: "POST", token: user.token, json: { name: `p${String(i).padStart(2, "0")}` } });
    if (res.status !== 201) throw new Error(await res.text());
  }
});
afterAll(() => s?.destroy());

function links(header: string | null) {
  return Object.fromEntries((header ?? "").split(", ").map((l) => [/rel="(\w+)"/.exec(l)![1], /<([^>]+)>/.exec(l)![1]!]));
}

describe("pagination over 45 projects", () => {
  it("pages with X-* headers and Link relations that can be followed", async () => {
    const first = await s.api("/projects?owned=true&order_by=name&sort=asc", { token: user.token });
    expect(first.headers.get("x-total")).toBe("45");
    expect(first.headers.get("x-total-pages")).toBe("3");
    expect(first.headers.get("x-per-page")).toBe("20");
    expect(first.headers.get("x-page")).toBe("1");
    expect(first.headers.get("x-next-page")).toBe("2");
    expect(first.headers.get("x-prev-page")).toBe("");
    const page1 = (await first.json()) as { name: string }[];
    expect(page1.map((p) => p.name).slice(0, 3)).toEqual(["p00", "p01", "p02"]);

    const rel = links(first.headers.get("link"));
    expect(Object.keys(rel).sort()).toEqual(["first", "last", "next"]);
    const seen = [...page1.map((p) => p.name)];
    let next: string | undefined = rel.next;
    while (next) {
      const res = await fetch(next, { headers: { "PRIVATE-TOKEN": user.token } });
      seen.push(...((await res.json()) as { name: string }[]).map((p) => p.name));
      next = links(res.headers.get("link")).next;
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it("returns the 5 remaining items on page 3 and caps per_page at 100", async () => {
    const last = await s.api("/projects?owned=true&page=3", { token: user.token });
    expect((await last.json()) as unknown[]).toHaveLength(5);
    expect(last.headers.get("x-next-page")).toBe("");
    expect(last.headers.get("x-prev-page")).toBe("2");
    const big = await s.api("/projects?owned=true&per_page=1000", { token: user.token });
    expect(big.status).toBe(200);
    expect(big.headers.get("x-per-page")).toBe("100");
    expect((await big.json()) as unknown[]).toHaveLength(45);
  });

  it("lists a user's personal projects with the same filters and headers", async () => {
    const res = await s.api(`/users/${user.id}/projects?per_page=10&search=p4&simple=true`, { token: user.token });
    expect(res.headers.get("x-total")).toBe("5");
    const names = ((await res.json()) as { name: string }[]).map((p) => p.name).sort();
    expect(names).toEqual(["p40", "p41", "p42", "p43", "p44"]);
    expect((await s.api("/users/999999/projects")).status).toBe(404);
  });

  it("lets a real client walk all pages", async () => {
    const projects = await s.gitlab(user.token).Projects.all({ owned: true, perPage: 10 });
    expect(projects).toHaveLength(45);
  });
});

describe("keyset pagination", () => {
  it("walks projects by id_after links without totals", async () => {
    const seen: number[] = [];
    let next: string | undefined = `${s.url}/api/v4/projects?owned=true&pagination=keyset&order_by=id&sort=asc&per_page=20`;
    let pages = 0;
    while (next) {
      const res = await fetch(next, { headers: { "PRIVATE-TOKEN": user.token } });
      expect(res.headers.get("x-total")).toBeNull();
      seen.push(...((await res.json()) as { id: number }[]).map((p) => p.id));
      const link = res.headers.get("link");
      next = link ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined;
      if (next) expect(next).toContain("id_after=");
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(45);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("walks users with an opaque cursor and refuses unsupported orders with 405", async () => {
    const res = await s.api("/users?pagination=keyset&order_by=id&sort=asc&per_page=1");
    expect((await res.json()) as unknown[]).toHaveLength(1);
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    expect(next).toContain("cursor=");
    const second = (await (await fetch(next!, { headers: { "PRIVATE-TOKEN": s.rootToken } })).json()) as { id: number }[];
    expect(second[0]!.id).toBe(user.id);
    expect((await s.api("/users?pagination=keyset&order_by=name")).status).toBe(405);
  });
});
