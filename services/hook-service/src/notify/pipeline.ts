// failed_pipeline, fixed_pipeline and success_pipeline e-mails (GitLab's
// NotificationService#pipeline_finished): to the pipeline's user alone, by their setting.
import type { PipelineEvent } from "@quarry/bus";
import { isNotFound } from "@quarry/grpc";
import { SYSTEM_ACTOR } from "../delivery/fan-out.ts";
import { absolute, type Deps, deliver, effectiveSettings, type Notifier } from "./common.ts";
import type { EffectiveSetting } from "./recipients.ts";

type PipelineAction = "failed_pipeline" | "fixed_pipeline" | "success_pipeline";

/**
 * The ref's status after this finished pipeline, as GitLab's Ci::Ref: failed (also when still
 * failing), fixed (success after a failure) or success. Remembered per pipeline, so a redelivery
 * decides as the first delivery did.
 */
async function refStatus(deps: Deps, e: PipelineEvent, status: "success" | "failed"): Promise<"failed" | "fixed" | "success"> {
  const projectId = Number(e.project_id);
  const ref = String(e.object_attributes.ref);
  const pipelineId = Number(e.object_attributes.id);
  const row = await deps.prisma.notificationPipelineRef.findUnique({ where: { projectId_ref: { projectId, ref } } });
  let previous: string | null = null;
  if (row?.pipelineId === pipelineId) previous = row.previousStatus;
  else if (!row || row.pipelineId < pipelineId) {
    previous = row?.status ?? null;
    await deps.prisma.notificationPipelineRef.upsert({
      where: { projectId_ref: { projectId, ref } },
      create: { projectId, ref, pipelineId, status, previousStatus: previous },
      update: { pipelineId, status, previousStatus: previous },
    });
  }
  if (status === "failed") return "failed";
  return previous === "failed" ? "fixed" : "success";
}

/** NotificationRecipient#notifiable? for the pipeline user, added as a :watch recipient. */
export function pipelineUserNotified(setting: EffectiveSetting | undefined, action: PipelineAction): boolean {
  if (!setting?.email) return false;
  switch (setting.level) {
    case "watch":
    case "participating":
      // Both levels leave out success_pipeline (EXCLUDED_WATCHER_EVENTS, EXCLUDED_PARTICIPATING_EVENTS).
      return action !== "success_pipeline";
    case "custom":
      return setting.events[action] === true;
    default:
      return false;
  }
}

const STATUS_TEXT: Record<PipelineAction, [string, string]> = {
  failed_pipeline: ["Failed", "Your pipeline has failed."],
  fixed_pipeline: ["Fixed", "Your pipeline has been fixed!"],
  success_pipeline: ["Successful", "Your pipeline has passed."],
};

/** Mails a finished (success or failed) pipeline's user; returns how many mails were sent now. */
export async function notifyPipeline(deps: Deps, n: Notifier, e: PipelineEvent): Promise<number> {
  const status = e.object_attributes.status;
  const userId = Number(e.user_id);
  if ((status !== "success" && status !== "failed") || !(userId > 0)) return 0;
  let project: Awaited<ReturnType<Deps["identity"]["GetProject"]>>;
  try {
    project = await deps.identity.GetProject({ actor: SYSTEM_ACTOR, idOrPath: String(e.project_id) });
  } catch (err) {
    if (isNotFound(err)) return 0;
    throw err;
  }
  const action = `${await refStatus(deps, e, status)}_pipeline` as PipelineAction;
  const setting = (await effectiveSettings(deps, [userId], Number(e.project_id), action)).get(userId);
  if (!setting || !pipelineUserNotified(setting, action)) return 0;
  const a = e.object_attributes;
  const [word, sentence] = STATUS_TEXT[action];
  const shortSha = String(a.sha).slice(0, 8);
  const url = absolute(deps, a.url ?? `/${project.pathWithNamespace}/-/pipelines/${a.id}`);
  const mail = {
    subject: `${project.name} | ${word} pipeline for ${a.ref} | ${shortSha}`,
    text: `${sentence}\n\nProject: ${project.name} ( ${absolute(deps, `/${project.pathWithNamespace}`)} )\nBranch: ${a.ref}\nCommit: ${shortSha}\nPipeline #${a.id} ( ${url} )\n`,
    headers: {
      "X-GitLab-Project": project.name,
      "X-GitLab-Project-Id": String(e.project_id),
      "X-GitLab-Project-Path": project.pathWithNamespace,
      "X-GitLab-Pipeline-Id": String(a.id),
      "X-GitLab-Pipeline-Ref": String(a.ref),
      "X-GitLab-Pipeline-Status": status,
    },
  };
  return (await deliver(deps, n, e.event_id, action, { userId, email: setting.email, reason: null }, mail)) ? 1 : 0;
}
