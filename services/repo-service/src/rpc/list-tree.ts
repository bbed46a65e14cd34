import { pagination } from "@quarry/database";
import { notFound, paramError } from "@quarry/grpc";
import type { ListTreeRequest__Output } from "@quarry/proto/types/repo/v1/ListTreeRequest";
import type { ListTreeResponse__Output as ListTreeResponse } from "@quarry/proto/types/repo/v1/ListTreeResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { readTreeEntries, resolveCommitOid, treesFirst, type TreeEntry } from "../git/trees.ts";

/** GitLab's answer for a path that is not in the tree (Gitaly's "invalid revision or path"). */
const invalidPath = () => notFound("invalid revision or path");

/**
 * A path inside the tree without surrounding slashes ("" for the root, also for "." and "/"), or
 * null for one git cannot resolve (".." and empty segments).
 */
export function treePath(raw: string): string | null {
  const p = raw.replace(/^\/+|\/+$/g, "");
  if (p === "" || p === ".") return "";
  return p.split("/").some((s) => s === "" || s === "." || s === "..") ? null : p;
}

/**
 * Gitaly's keyset token: base64 of {"file_name": <path of the last entry>}. Older clients send the
 * last entry's object id instead, which is still accepted.
 */
export function encodePageToken(path: string): string {
  return Buffer.from(JSON.stringify({ file_name: path })).toString("base64");
}

function pageStart(entries: TreeEntry[], token: string): number {
  if (!token) return 0;
  let path: string | null = null;
  try {
    const decoded = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as { file_name?: unknown };
    if (typeof decoded.file_name === "string") path = decoded.file_name;
  } catch {
    // Not a path token: an object id.
  }
  const i = entries.findIndex((e) => (path === null ? e.oid === token : e.path === path));
  if (i === -1) throw paramError("page_token does not have a valid value");
  return i + 1;
}

function toEntry(e: TreeEntry) {
  return { id: e.oid, name: e.name, type: e.type, path: e.path, mode: e.mode };
}

/**
 * A tree listing read through the cat-file pool (no git process per request), in GitLab's order,
 * paged by offset or by keyset. Unknown ref: `404 Tree Not Found`; unknown path:
 * `404 invalid revision or path Not Found`; a path naming a file lists nothing (as Gitaly).
 */
export const listTree =
  (deps: RepoDeps) =>
  async (req: ListTreeRequest__Output): Promise<ListTreeResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const commit = await resolveCommitOid(deps.catFile, dir, req.ref);
    if (!commit) throw notFound("Tree");
    const path = treePath(req.path);
    if (path === null) throw invalidPath();
    const listed = await readTreeEntries(deps.catFile, dir, `${commit}:${path}`, path, req.recursive);
    if (!listed) throw invalidPath();
    const entries = treesFirst(listed);
    const total = entries.length;
    if (req.unpaginated) return { entries: entries.map(toEntry), total, nextPageToken: "" };
    const { offset, limit } = pagination(req.page, req.perPage);
    if (req.keyset) {
      const start = pageStart(entries, req.pageToken);
      const page = entries.slice(start, start + limit);
      const more = start + limit < total;
      return { entries: page.map(toEntry), total, nextPageToken: more ? encodePageToken(page.at(-1)!.path) : "" };
    }
    return { entries: entries.slice(offset, offset + limit).map(toEntry), total, nextPageToken: "" };
  };
