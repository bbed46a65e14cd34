import type { Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { PipelineRequest__Output } from "@quarry/proto/types/ci/v1/PipelineRequest";
import type { CiDeps } from "../deps.ts";
import { findPipeline, pipelineMessages } from "./pipelines.ts";

/** One pipeline of the project, child pipelines included; NOT_FOUND "404 Not found" otherwise. */
export const getPipeline =
  (deps: CiDeps) =>
  async (req: PipelineRequest__Output): Promise<Pipeline> => {
    const pipeline = await findPipeline(deps.prisma, Number(req.projectId), Number(req.pipelineId));
    const [message] = await pipelineMessages(deps.prisma, [pipeline]);
    return message!;
  };
