import type * as grpc from "@grpc/grpc-js";
import { notFound } from "@quarry/grpc";
import type { ReceivePackRequest__Output } from "@quarry/proto/types/repo/v1/ReceivePackRequest";
import type { ReceivePackResponse } from "@quarry/proto/types/repo/v1/ReceivePackResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { gitProtocolEnv, runGitService } from "../git/smart-http.ts";
import { repositoryPath } from "../validate.ts";

/** Wiki repositories are the project's path with `.wiki.git` (wikiDir). */
export const isWikiDiskPath = (diskPath: string) => diskPath.endsWith(".wiki.git");

/**
 * A push to a wiki repository: plain `git receive-pack`. The project's protected branches and
 * push events are the project repository's; GitLab applies neither to its wiki.
 */
export async function receiveWikiPush(
  deps: RepoDeps,
  call: grpc.ServerDuplexStream<ReceivePackRequest__Output, ReceivePackResponse>,
  first: ReceivePackRequest__Output,
  body: AsyncIterable<Buffer>,
): Promise<void> {
  const dir = repositoryPath(deps.storageRoot, first.diskPath);
  if (!(await isRepository(dir))) throw notFound("Repository");
  await runGitService({ args: ["receive-pack", "--stateless-rpc", dir], env: gitProtocolEnv(first.gitProtocol), input: body, call, log: deps.log });
}
