// Issue and note rows written straight into the stack's collab-service database, for the award
// emoji tests while the issues and notes APIs are built elsewhere (to be replaced by API calls).
import { databaseUrlFor } from "@quarry/database";
import pg from "pg";
import type { TestStack } from "./helpers.ts";

/** Runs one statement against the stack's collab-service database. */
async function collabQuery<T extends pg.QueryResultRow>(s: TestStack, sql: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrlFor(s.options.serverUrl, `${s.options.prefix}_collab`) });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** An issue of `projectId` by `authorId` with the next free iid; its id and iid. */
export async function insertIssue(
  s: TestStack,
  projectId: number,
  authorId: number,
  options: { title?: string; confidential?: boolean; discussionLocked?: boolean } = {},
): Promise<{ id: number; iid: number }> {
  const [row] = await collabQuery<{ id: number; iid: number }>(
    s,
    `INSERT INTO issues (project_id, iid, title, author_id, confidential, discussion_locked, updated_at)
     VALUES ($1, (SELECT COALESCE(MAX(iid), 0) + 1 FROM issues WHERE project_id = $1), $2, $3, $4, $5, now())
     RETURNING id, iid`,
    [projectId, options.title ?? "an issue", authorId, options.confidential ?? false, options.discussionLocked ?? null],
  );
  return row!;
}

/** A note on an issue; its id. */
export async function insertIssueNote(
  s: TestStack,
  issue: { id: number },
  projectId: number,
  authorId: number,
  options: { body?: string; internal?: boolean } = {},
): Promise<{ id: number }> {
  const [row] = await collabQuery<{ id: number }>(
    s,
    `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, internal, discussion_id, updated_at)
     VALUES ('Issue', $1, $2, $3, $4, $5, md5(random()::text) || substr(md5(random()::text), 1, 8), now())
     RETURNING id`,
    [issue.id, projectId, authorId, options.body ?? "a note", options.internal ?? false],
  );
  return row!;
}
