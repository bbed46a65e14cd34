import { readFileSync } from "node:fs";
import { applyMigrations, findSchemaDrift } from "@quarry/database";
import { createTestDatabase } from "@quarry/testing";
import { expect, it } from "vitest";
import { migrations } from "./generated/migrations.ts";

it("the migrations produce exactly the tables and columns of schema.prisma", async () => {
  const db = await createTestDatabase("repo_drift");
  try {
    const { applied } = await applyMigrations(db.url, migrations, { log: () => {} });
    expect(applied).toEqual(migrations.map((m) => m.name));
    const schema = readFileSync(new URL("../prisma/schema.prisma", import.meta.url), "utf8");
    expect(await findSchemaDrift(db.url, schema)).toEqual([]);
  } finally {
    await db.drop();
  }
});
