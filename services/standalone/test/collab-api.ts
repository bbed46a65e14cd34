// Issues and comments made through the REST API as root, for tests whose subject is something
// else (notes, award emoji, webhooks).
import type { TestStack } from "./helpers.ts";

async function created<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** An issue of `projectId` by root (an administrator may choose its iid); its id and iid. */
export async function createIssue(
  s: TestStack,
  projectId: number,
  o: { title?: string; iid?: number; confidential?: boolean; discussionLocked?: boolean } = {},
): Promise<{ id: number; iid: number }> {
  const json = { title: o.title ?? (o.iid ? `issue ${o.iid}` : "an issue"), iid: o.iid, confidential: o.confidential, discussion_locked: o.discussionLocked };
  return created(await s.api(`/projects/${projectId}/issues`, { method: "POST", json }));
}

/** A comment by root on an issue; its id. */
export async function createIssueNote(
  s: TestStack,
  projectId: number,
  issueIid: number,
  o: { body?: string; internal?: boolean } = {},
): Promise<{ id: number }> {
  const json = { body: o.body ?? "a note", internal: o.internal };
  return created(await s.api(`/projects/${projectId}/issues/${issueIid}/notes`, { method: "POST", json }));
}
