import type * as grpc from "@grpc/grpc-js";
import { notFound, paramError } from "@quarry/grpc";
import type { InfoRefsRequest__Output } from "@quarry/proto/types/repo/v1/InfoRefsRequest";
import type { InfoRefsResponse } from "@quarry/proto/types/repo/v1/InfoRefsResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { GIT_SERVICES, gitProtocolEnv, runGitService, streamingHandler, UPLOAD_PACK_CONFIG, type GitService } from "../git/smart-http.ts";

/**
 * Streams `git upload-pack|receive-pack --stateless-rpc --advertise-refs` (the body of
 * GET info/refs after the "# service=…" line the gateway writes).
 */
export const infoRefs = (deps: RepoDeps) =>
  streamingHandler<grpc.ServerWritableStream<InfoRefsRequest__Output, InfoRefsResponse>>("InfoRefs", deps.log, async (call) => {
    const req = call.request;
    const dir = deps.storages.resolve(req.diskPath);
    if (!GIT_SERVICES.includes(req.service as GitService)) throw paramError("service does not have a valid value");
    // A push to a repository being moved is refused at the advertisement, as GitLab's access check does.
    if (req.service === "git-receive-pack") deps.storages.assertWritable(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const upload = req.service === "git-upload-pack";
    await runGitService({
      args: [...(upload ? UPLOAD_PACK_CONFIG : []), upload ? "upload-pack" : "receive-pack", "--stateless-rpc", "--advertise-refs", dir],
      env: gitProtocolEnv(req.gitProtocol),
      call,
      log: deps.log,
    });
  });
