// Test-only: issue rows written straight into collab-service's database, for the notes tests
// until the issues API is merged (then these become POST /projects/:id/issues).
import { databaseUrlFor } from "@quarry/database";
import pg from "pg";
import type { TestStack } from "./helpers.ts";

/** Inserts issue `iid` of a project, as if created through the API. */
export async function insertIssue(stack: TestStack, projectId: number, iid: number, o: { authorId: number; confidential?: boolean; locked?: boolean }) {
  const client = new pg.Client({ connectionString: databaseUrlFor(stack.options.serverUrl, `${stack.options.prefix}_collab`) });
  await client.connect();
  try {
    await client.query(
      "INSERT INTO issues (project_id, iid, title, author_id, confidential, discussion_locked, updated_at) VALUES ($1, $2, $3, $4, $5, $6, now())",
      [projectId, iid, `issue ${iid}`, o.authorId, o.confidential ?? false, o.locked ?? null],
    );
  } finally {
    await client.end();
  }
}
