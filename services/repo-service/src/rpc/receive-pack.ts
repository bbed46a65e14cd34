import { readFile } from "node:fs/promises";
import type * as grpc from "@grpc/grpc-js";
import { badRequest, notFound } from "@quarry/grpc";
import type { ReceivePackRequest__Output } from "@quarry/proto/types/repo/v1/ReceivePackRequest";
import type { ReceivePackResponse } from "@quarry/proto/types/repo/v1/ReceivePackResponse";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "../refs/branches.ts";
import { isRepository, readHeadAndBranches } from "../git/git.ts";
import { installPushHooks } from "../protection/hooks.ts";
import { CommandReader, type RefCommand } from "../git/pkt-line.ts";
import { BranchProtection } from "../protection/protection.ts";
import { parseRefUpdates, pushEventInput, recordPushEvents } from "../events/push-events.ts";
import type { PushEventInput } from "@quarry/bus";
import { checkPush } from "../protection/push-rules.ts";
import { gitProtocolEnv, readFirst, runGitService, streamingHandler, type ChunkWriter } from "../git/smart-http.ts";
import { isWikiDiskPath, receiveWikiPush } from "../wiki/receive-wiki-push.ts";

/** The command list is buffered before git starts; more than this is refused. */
const MAX_COMMANDS_BYTES = 64 * 1024 * 1024;

/**
 * Receives a push: reads the ref-update commands from the start of the body, checks them
 * against the project's protected branches and the pusher's level (push-rules.ts), runs
 * `git receive-pack --stateless-rpc` with hooks that enforce the verdict (hooks.ts), then
 * records one push / tag_push event per ref git actually updated.
 */
export const receivePack = (deps: RepoDeps) =>
  streamingHandler<grpc.ServerDuplexStream<ReceivePackRequest__Output, ReceivePackResponse>>("ReceivePack", deps.log, async (call) => {
    const { first, body } = await readFirst<ReceivePackRequest__Output>(call);
    if (isWikiDiskPath(first.diskPath)) return receiveWikiPush(deps, call, first, body);
    await receivePush(deps, first, body, call);
  });

/**
 * A project push from `body` (the ref-update commands, then the pack), its output to `call`:
 * shared by smart HTTP (above) and git over SSH (ssh/git-ssh.ts), so both apply the same
 * protected-branch rules and record the same push events.
 */
export async function receivePush(
  deps: RepoDeps,
  first: Pick<ReceivePackRequest__Output, "diskPath" | "gitProtocol" | "context">,
  body: AsyncIterable<Buffer>,
  call: ChunkWriter,
): Promise<void> {
  const dir = deps.storages.resolve(first.diskPath);
  deps.storages.assertWritable(first.diskPath); // a storage move runs: GitLab's temporary read-only refusal
  const context = requireContext(first.context);
  if (!(await isRepository(dir))) throw notFound("Repository");
  const { commands, input } = await readCommands(body);
  const [protection, { branches }] = await Promise.all([BranchProtection.load(deps, context.projectId), readHeadAndBranches(dir)]);
  const wasEmpty = branches.length === 0;
  const verdict = checkPush(commands, {
    protection,
    accessLevel: context.accessLevel,
    defaultBranch: context.defaultBranch,
    emptyRepository: wasEmpty,
    pathWithNamespace: context.pathWithNamespace,
    webUrl: context.webUrl,
    deployKey: context.deployKey,
  });

  const hooks = await installPushHooks(deps.storageRoot);
  try {
    const failure = await runGitService({
      args: ["-c", `core.hooksPath=${hooks.dir}`, "receive-pack", "--stateless-rpc", dir],
      env: {
        ...gitProtocolEnv(first.gitProtocol),
        QUARRY_DENY: verdict.denied,
        QUARRY_FF_ONLY: verdict.fastForwardOnly.join("\n"),
        QUARRY_UPDATED_REFS: hooks.updatedRefsFile,
      },
      input,
      call,
      log: deps.log,
    }).then(
      () => null,
      (err: unknown) => err,
    );
    // Refs git moved get their events even when the call failed afterwards.
    const updates = parseRefUpdates(await readFile(hooks.updatedRefsFile, "utf8").catch(() => ""));
    const inputs: PushEventInput[] = [];
    for (const u of updates) {
      const i = await pushEventInput(dir, u, { context, protection, wasEmpty });
      if (i) inputs.push(i);
    }
    await recordPushEvents(deps, inputs);
    if (failure) throw failure;
  } finally {
    await hooks.remove();
  }
}

/** Buffers the body until its command list is complete; `input` replays the buffered bytes and the rest. */
async function readCommands(body: AsyncIterable<Buffer>): Promise<{ commands: RefCommand[]; input: AsyncIterable<Buffer> }> {
  const it = body[Symbol.asyncIterator]();
  const reader = new CommandReader();
  const seen: Buffer[] = [];
  let size = 0;
  let done = false;
  for (;;) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    size += next.value.length;
    if (reader.push(next.value)) break;
    if (size > MAX_COMMANDS_BYTES) throw badRequest("too many ref updates");
  }
  async function* input(): AsyncIterable<Buffer> {
    yield* seen;
    if (done) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { commands: reader.commands, input: input() };
}
