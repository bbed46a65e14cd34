// Issue notification e-mails as GitLab's Notify (app/mailers/emails/issues.rb) writes them:
// subject, text body with the web URL, and the X-GitLab-* headers.
import type { NotificationReason, NotifyAction } from "./recipients.ts";

export interface MailProject {
  id: number;
  name: string;
  pathWithNamespace: string;
}

export interface MailIssue {
  id: number;
  iid: number;
  title: string;
  description: string;
  /** Absolute web URL. */
  url: string;
}

export interface Mail {
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** GitLab's `subject`: "Re: " for thread answers, then project name and title joined by " | ". */
function subject(project: MailProject, issue: MailIssue, reply: boolean): string {
  return `${reply ? "Re: " : ""}${project.name} | ${issue.title} (#${issue.iid})`;
}

/** The mail of one issue action to one recipient. `names` maps user ids to display names. */
export function issueMail(o: {
  action: NotifyAction;
  project: MailProject;
  issue: MailIssue;
  /** new_note: the comment and its URL. */
  note?: { text: string; url: string };
  actorName: string;
  assigneeNames: string[];
  previousAssigneeNames: string[];
  reason: NotificationReason | null;
}): Mail {
  const { project, issue } = o;
  const headers: Record<string, string> = {
    "X-GitLab-Project": project.name,
    "X-GitLab-Project-Id": String(project.id),
    "X-GitLab-Project-Path": project.pathWithNamespace,
    "X-GitLab-Issue-ID": String(issue.id),
    "X-GitLab-Issue-IID": String(issue.iid),
  };
  if (o.reason) headers["X-GitLab-NotificationReason"] = o.reason;
  const assignees = o.assigneeNames.join(", ");
  let text: string;
  switch (o.action) {
    case "new_issue":
      text = `${o.actorName} created an issue:\n\n${issue.url}\n\n${assignees ? `Assignee: ${assignees}\n\n` : ""}${issue.description}`;
      break;
    case "close_issue":
      text = `Issue was closed by ${o.actorName}\n\n${issue.url}`;
      break;
    case "reopen_issue":
      text = `Issue was reopened by ${o.actorName}\n\n${issue.url}`;
      break;
    case "new_note":
      text = `${o.actorName} commented:\n\n${o.note?.text ?? ""}\n\n${o.note?.url ?? issue.url}`;
      break;
    case "reassign_issue": {
      const before = o.previousAssigneeNames.join(", ");
      const change = before ? `Assignee changed from ${before} to ${assignees || "Unassigned"}` : `Assignee changed to ${assignees || "Unassigned"}`;
      text = `${change}\n\n${issue.url}`;
      break;
    }
  }
  return { subject: subject(project, issue, o.action !== "new_issue"), text: `${text.trimEnd()}\n`, headers };
}
