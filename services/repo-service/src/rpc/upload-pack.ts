import type * as grpc from "@grpc/grpc-js";
import { notFound } from "@quarry/grpc";
import type { UploadPackRequest__Output } from "@quarry/proto/types/repo/v1/UploadPackRequest";
import type { UploadPackResponse } from "@quarry/proto/types/repo/v1/UploadPackResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { gitProtocolEnv, readFirst, runGitService, streamingHandler, UPLOAD_PACK_CONFIG } from "../git/smart-http.ts";

/** Serves a clone / fetch: the request body into `git upload-pack --stateless-rpc`, its output back. */
export const uploadPack = (deps: RepoDeps) =>
  streamingHandler<grpc.ServerDuplexStream<UploadPackRequest__Output, UploadPackResponse>>("UploadPack", deps.log, async (call) => {
    const { first, body } = await readFirst<UploadPackRequest__Output>(call);
    const dir = deps.storages.resolve(first.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    await runGitService({
      args: [...UPLOAD_PACK_CONFIG, "upload-pack", "--stateless-rpc", dir],
      env: gitProtocolEnv(first.gitProtocol),
      input: body,
      call,
      log: deps.log,
    });
  });
