import fs from "node:fs";
import { applyMigrations, findSchemaDrift } from "@quarry/database";
import { createTestDatabase } from "@quarry/testing";
import { describe, expect, it } from "vitest";
import { migrations } from "./generated/migrations.ts";

describe("migrations", () => {
  it("produce exactly the tables and columns of schema.prisma", async () => {
    const db = await createTestDatabase("identdrift");
    try {
      await applyMigrations(db.url, migrations);
      const schema = fs.readFileSync(new URL("../prisma/schema.prisma", import.meta.url), "utf8");
      expect(await findSchemaDrift(db.url, schema)).toEqual([]);
    } finally {
      await db.drop();
    }
  });
});
