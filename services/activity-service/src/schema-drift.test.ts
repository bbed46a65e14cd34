import fs from "node:fs";
import { applyMigrations, findSchemaDrift } from "@quarry/database";
import { createTestDatabase } from "@quarry/testing";
import { expect, it } from "vitest";
import { migrations } from "./generated/migrations.ts";

it("the migrations produce exactly the tables and columns of prisma/schema.prisma", async () => {
  const db = await createTestDatabase("activity_drift");
  try {
    await applyMigrations(db.url, migrations, { log: () => {} });
    expect(await findSchemaDrift(db.url, fs.readFileSync("prisma/schema.prisma", "utf8"))).toEqual([]);
  } finally {
    await db.drop();
  }
});
