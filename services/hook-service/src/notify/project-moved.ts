// project_was_moved e-mails (GitLab's NotificationService#project_was_moved, Emails::Projects#
// project_was_moved_email): every member of the project, the renamer included, whose setting takes
// the moved_project custom action (watch and participating levels; custom with the switch, on by
// default; not mention or disabled).
import type { ProjectRenameEvent } from "@quarry/bus";
import { isNotFound } from "@quarry/grpc";
import { absolute, type Deps, deliver, effectiveSettings, type Notifier, projectMembers } from "./common.ts";
import type { Mail } from "./issue-mail.ts";

/** NotificationRecipient#suitable_notification_level? for the :custom type with custom_action moved_project. */
const takesMovedProject = (level: string, switchedOn: boolean) => level === "watch" || level === "participating" || (level === "custom" && switchedOn);

/** GitLab's project_was_moved_email, text part. */
export function projectMovedMail(project: { id: number; name: string; pathWithNamespace: string; url: string }, oldPath: string): Mail {
  return {
    subject: `${project.name} | Project was moved`,
    text: `Project ${oldPath} was moved to another location\n\nThe project is now located under\n${project.url}\n\nTo update the remote url in your local repository run (for http(s)):\ngit remote set-url origin ${project.url}.git\n`,
    headers: {
      "X-GitLab-Project": project.name,
      "X-GitLab-Project-Id": String(project.id),
      "X-GitLab-Project-Path": project.pathWithNamespace,
    },
  };
}

/** Mails a project's members that it moved; returns how many mails were sent now. */
export async function notifyProjectMoved(deps: Deps, n: Notifier, e: ProjectRenameEvent): Promise<number> {
  const projectId = Number(e.project_id);
  if (!(projectId > 0) || !e.old_path_with_namespace || e.old_path_with_namespace === e.path_with_namespace) return 0;
  let members: Map<number, number>;
  try {
    members = await projectMembers(deps, projectId);
  } catch (err) {
    if (isNotFound(err)) return 0; // deleted since
    throw err;
  }
  if (!members.size) return 0;
  const settings = await effectiveSettings(deps, [...members.keys()], projectId, "moved_project");
  const mail = projectMovedMail(
    { id: projectId, name: e.name, pathWithNamespace: e.path_with_namespace, url: absolute(deps, `/${e.path_with_namespace}`) },
    e.old_path_with_namespace,
  );
  let sent = 0;
  for (const userId of [...members.keys()].sort((a, b) => a - b)) {
    const s = settings.get(userId);
    if (!s?.email || !takesMovedProject(s.level, s.events.moved_project === true)) continue;
    if (await deliver(deps, n, e.event_id, "moved_project", { userId, email: s.email, reason: null }, mail)) sent++;
  }
  return sent;
}
