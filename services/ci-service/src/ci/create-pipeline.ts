import { branchRef, tagRef } from "@quarry/gitlab";
import { badRequest } from "@quarry/grpc";
import type { CreatePipelineRequest__Output } from "@quarry/proto/types/ci/v1/CreatePipelineRequest";
import type { Pipeline as PipelineMessage } from "@quarry/proto/types/ci/v1/Pipeline";
import { projectFacts, type CiDeps } from "../deps.ts";
import { createPipeline, type PipelineVariable } from "../pipelines/create.ts";
import { toPipelineMessage } from "../pipelines/messages.ts";

/**
 * POST /projects/:id/pipeline (GitLab's lib/api/ci/pipelines.rb): the ref may be a branch or a
 * tag (a branch wins); nothing is stored unless the config yields a pipeline, and refusals are
 * GitLab's validation errors, `{"message":{"base":[...]}}`.
 */
export const createPipelineRpc =
  (deps: CiDeps) =>
  async (req: CreatePipelineRequest__Output): Promise<PipelineMessage> => {
    const p = req.project;
    if (!p?.id) throw badRequest("400 Bad request - project is missing");
    if (!req.ref) throw badRequest({ base: ["Reference not found"] });
    const project = projectFacts(p);
    const branch = await deps.repositories.findCommit(project.diskPath, branchRef(req.ref));
    const tag = branch ? null : await deps.repositories.findCommit(project.diskPath, tagRef(req.ref));
    const commit = branch ?? tag;
    if (!commit) throw badRequest({ base: ["Reference not found"] });
    const variables: PipelineVariable[] = req.variables.map((v) => ({
      key: v.key,
      value: v.value,
      variable_type: v.variableType === "file" ? "file" : "env_var",
    }));
    const outcome = await createPipeline(deps, {
      project,
      ref: req.ref,
      tag: !branch,
      sha: commit.sha,
      source: req.source === "web" ? "web" : "api",
      userId: Number(req.userId),
      refProtected: req.refProtected,
      variables,
      saveOnErrors: false,
    });
    if ("skipped" in outcome) throw badRequest({ base: outcome.messages });
    return toPipelineMessage(outcome.created);
  };
