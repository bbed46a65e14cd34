import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, testPostgresServer, type TestDatabase } from "../src/postgres.ts";

const created: TestDatabase[] = [];
afterEach(async () => {
  for (const d of created.splice(0)) await d.drop();
});

async function currentDatabase(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
  } finally {
    await client.end();
  }
}

describe("testPostgresServer", () => {
  it("returns DATABASE_URL when set, else one memoised embedded server", async () => {
    const a = await testPostgresServer();
    const b = await testPostgresServer();
    expect(b).toBe(a);
    if (process.env.DATABASE_URL) expect(a).toBe(process.env.DATABASE_URL);
    expect(await currentDatabase(a)).toBe("postgres");
  });
});

describe("createTestDatabase", () => {
  it("creates distinct, connectable databases named after the prefix", async () => {
    const one = await createTestDatabase("identity");
    const two = await createTestDatabase("identity");
    created.push(one, two);
    expect(one.name).toMatch(/^identity_[0-9a-f]{12}$/);
    expect(one.name).not.toBe(two.name);
    expect(await currentDatabase(one.url)).toBe(one.name);
    expect(await currentDatabase(two.url)).toBe(two.name);

    // Isolated from each other.
    const c = new pg.Client({ connectionString: one.url });
    await c.connect();
    await c.query("CREATE TABLE only_in_one (id INT)");
    await c.end();
    const d = new pg.Client({ connectionString: two.url });
    await d.connect();
    expect((await d.query("SELECT to_regclass('only_in_one') AS t")).rows).toEqual([{ t: null }]);
    await d.end();
  });

  it("sanitises the prefix and keeps names within 63 characters", async () => {
    const db = await createTestDatabase(`Repo-Service ${"x".repeat(80)}`);
    created.push(db);
    expect(db.name.length).toBeLessThanOrEqual(63);
    expect(db.name).toMatch(/^repo_service_x+_[0-9a-f]{12}$/);
    expect(await currentDatabase(db.url)).toBe(db.name);
  });

  it("drop removes the database even with open connections", async () => {
    const db = await createTestDatabase("dropme");
    const open = new pg.Client({ connectionString: db.url });
    open.on("error", () => {});
    await open.connect();
    await db.drop();
    await open.end().catch(() => {});
    const server = new pg.Client({ connectionString: await testPostgresServer() });
    await server.connect();
    const { rowCount } = await server.query("SELECT 1 FROM pg_database WHERE datname = $1", [db.name]);
    await server.end();
    expect(rowCount).toBe(0);
  });
});
