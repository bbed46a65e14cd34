import { readFile } from "node:fs/promises";
import type * as grpc from "@grpc/grpc-js";
import type { WikiPageEvent } from "@quarry/bus";
import { branchRef } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { ReceivePackRequest__Output } from "@quarry/proto/types/repo/v1/ReceivePackRequest";
import type { ReceivePackResponse } from "@quarry/proto/types/repo/v1/ReceivePackResponse";
import type { RepoDeps } from "../deps.ts";
import { parseRefUpdates } from "../events/push-events.ts";
import { git, isRepository } from "../git/git.ts";
import type { RefCommand } from "../git/pkt-line.ts";
import { gitProtocolEnv, runGitService } from "../git/smart-http.ts";
import { installPushHooks } from "../protection/hooks.ts";
import { pageOfPath, publishWikiPages, WIKI_BRANCH, type WikiPageChange, wikiPageEvent } from "./wiki.ts";

/** Wiki repositories are the project's path with `.wiki.git` (wikiDir). */
export const isWikiDiskPath = (diskPath: string) => diskPath.endsWith(".wiki.git");

/** Git::WikiPushService::MAX_CHANGES: at most this many changed files of one push become events. */
export const MAX_WIKI_PUSH_CHANGES = 100;

/** Whom a wiki push's page events name: the project (context) or the group (group_id), and the pusher. */
export interface WikiPushOwner {
  projectId: number;
  groupId: number;
  userId: number;
}

/**
 * A push to a wiki repository: `git receive-pack` (the project's protected branches and push
 * events are the project repository's; GitLab applies neither to its wiki), then, as GitLab's
 * Git::WikiPushService, one wiki_page event per page the push added, changed or deleted on the
 * wiki's default branch (at most MAX_WIKI_PUSH_CHANGES files).
 */
export async function receiveWikiPush(
  deps: RepoDeps,
  call: grpc.ServerDuplexStream<ReceivePackRequest__Output, ReceivePackResponse>,
  first: ReceivePackRequest__Output,
  body: AsyncIterable<Buffer>,
): Promise<void> {
  const dir = deps.storages.resolve(first.diskPath);
  deps.storages.assertWritable(first.diskPath); // a storage move runs: GitLab's temporary read-only refusal
  if (!(await isRepository(dir))) throw notFound("Repository");
  const owner: WikiPushOwner = {
    projectId: Number(first.context?.projectId ?? 0),
    groupId: Number(first.groupId ?? 0),
    userId: Number(first.context?.userId ?? 0),
  };
  // Only post-receive matters here: it lists the refs git really moved.
  const hooks = await installPushHooks(deps.storageRoot);
  try {
    const failure = await runGitService({
      args: ["-c", `core.hooksPath=${hooks.dir}`, "receive-pack", "--stateless-rpc", dir],
      env: { ...gitProtocolEnv(first.gitProtocol), QUARRY_DENY: "", QUARRY_FF_ONLY: "", QUARRY_UPDATED_REFS: hooks.updatedRefsFile },
      input: body,
      call,
      log: deps.log,
    }).then(
      () => null,
      (err: unknown) => err,
    );
    const updates = parseRefUpdates(await readFile(hooks.updatedRefsFile, "utf8").catch(() => ""));
    const events: Omit<WikiPageEvent, "event_id">[] = [];
    for (const u of updates) {
      if (u.ref !== branchRef(WIKI_BRANCH)) continue;
      for (const change of await pushedPageChanges(deps, dir, u, owner)) {
        const event = wikiPageEvent(change, change.versionId);
        if (event) events.push(event);
      }
    }
    await publishWikiPages(deps, events);
    if (failure) throw failure;
  } finally {
    await hooks.remove();
  }
}

const isNull = (sha: string) => /^0+$/.test(sha);

/**
 * The page changes between a ref update's old and new commits (Git::WikiPushService::Change):
 * an added page is `create`, a deleted one `delete` (with its last content), a changed or
 * renamed one `update` (the page at its new path). Files that are no pages are skipped. Each
 * change's version is the newest pushed commit touching the page, its message that commit's.
 */
export async function pushedPageChanges(deps: RepoDeps, dir: string, u: RefCommand, owner: WikiPushOwner): Promise<(WikiPageChange & { versionId: string })[]> {
  if (isNull(u.newSha)) return [];
  const from = isNull(u.oldSha) ? (await git(["hash-object", "-t", "tree", "--stdin"], { gitDir: dir })).stdout.trim() : u.oldSha;
  const raw = (await git(["diff-tree", "-r", "-z", "-M", "--raw", "--no-commit-id", from, u.newSha], { gitDir: dir })).stdout;
  const changes: (WikiPageChange & { versionId: string })[] = [];
  for (const c of parseRawDiff(raw).slice(0, MAX_WIKI_PUSH_CHANGES)) {
    const deleted = c.status === "D";
    const page = pageOfPath(deleted ? c.oldPath : c.newPath);
    if (!page) continue;
    const blob = await deps.catFile.read(dir, deleted ? c.oldBlob : c.newBlob);
    const range = isNull(u.oldSha) ? [u.newSha] : [u.newSha, `^${u.oldSha}`];
    const paths = [...new Set([c.oldPath, c.newPath])];
    const log = (await git(["log", "-1", "--format=%H%x00%B", ...range, "--", ...paths], { gitDir: dir })).stdout;
    const [versionId = u.newSha, message = ""] = log.split("\0");
    changes.push({
      ...owner,
      attributes: {
        title: page.title,
        content: blob?.data.toString("utf8") ?? "",
        format: page.format,
        message: message.replace(/\s+$/, ""),
        slug: page.slug,
        action: c.status === "A" ? "create" : deleted ? "delete" : "update",
      },
      versionId: versionId.trim() || u.newSha,
    });
  }
  return changes;
}

interface RawChange {
  status: string;
  oldBlob: string;
  newBlob: string;
  oldPath: string;
  newPath: string;
}

/** `git diff-tree -r -z --raw` output: ":<mode> <mode> <blob> <blob> <status>\0<path>\0[<new path>\0]". */
export function parseRawDiff(raw: string): RawChange[] {
  const fields = raw.split("\0");
  const out: RawChange[] = [];
  for (let i = 0; i < fields.length; ) {
    const head = fields[i++]!;
    if (!head.startsWith(":")) continue;
    const [, , oldBlob = "", newBlob = "", status = ""] = head.slice(1).split(" ");
    const letter = status.charAt(0);
    const oldPath = fields[i++] ?? "";
    const newPath = letter === "R" || letter === "C" ? (fields[i++] ?? "") : oldPath;
    out.push({ status: letter, oldBlob, newBlob, oldPath, newPath });
  }
  return out;
}
