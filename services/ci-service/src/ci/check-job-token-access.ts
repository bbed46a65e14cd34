import type { JobTokenAccessRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenAccessRequest";
import type { JobTokenAccessResponse } from "@quarry/proto/types/ci/v1/JobTokenAccessResponse";
import type { CiDeps } from "../deps.ts";

/**
 * GitLab's Ci::JobToken::Scope#accessible?: a job may use its token on its own project, and on
 * another project when that project's inbound limit is off or its allowlist names the job's
 * project or one of the job's project's groups.
 */
export const checkJobTokenAccess =
  (deps: CiDeps) =>
  async (req: JobTokenAccessRequest__Output): Promise<JobTokenAccessResponse> => {
    const target = Number(req.targetProjectId);
    const source = Number(req.sourceProjectId);
    if (target === source) return { allowed: true };
    const setting = await deps.prisma.ciSetting.findUnique({ where: { projectId: target } });
    if (setting && !setting.jobTokenScopeEnabled) return { allowed: true };
    const [project, group] = await Promise.all([
      deps.prisma.jobTokenProjectLink.findUnique({ where: { sourceProjectId_targetProjectId: { sourceProjectId: target, targetProjectId: source } } }),
      deps.prisma.jobTokenGroupLink.findFirst({ where: { sourceProjectId: target, targetGroupId: { in: req.sourceGroupIds.map(Number) } } }),
    ]);
    return { allowed: Boolean(project || group) };
  };
