// Issue notification e-mails as GitLab's Notify (app/mailers/emails/issues.rb) writes them:
// subject, text body with the web URL, and the X-GitLab-* headers.
import type { NotificationReason, NotifyAction } from "./recipients.ts";

export interface MailProject {
  id: number;
  name: string;
  pathWithNamespace: string;
}

export interface MailIssue {
  /** Issues are #iid, merge requests !iid, project snippets $id. */
  kind: "issue" | "merge_request" | "snippet";
  id: number;
  iid: number;
  title: string;
  description: string;
  /** Absolute web URL. */
  url: string;
  /** Issues: the due date (YYYY-MM-DD), when set. */
  dueDate?: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** GitLab's Date :medium format ("%b %-d, %Y"): Nov 27, 2026. */
const mediumDate = (ymd: string) => {
  const [y, m, d] = ymd.split("-").map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}`;
};

export interface Mail {
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** GitLab's `subject`: "Re: " for thread answers, then project name and title joined by " | ". */
function subject(project: MailProject, issue: MailIssue, reply: boolean): string {
  return `${reply ? "Re: " : ""}${project.name} | ${issue.title} (${reference(issue)})`;
}

/** reference_link_text: #iid, !iid, or a project snippet's $id. */
const reference = (issue: MailIssue) => (issue.kind === "issue" ? `#${issue.iid}` : issue.kind === "merge_request" ? `!${issue.iid}` : `$${issue.id}`);

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
  reviewerNames?: string[];
  previousReviewerNames?: string[];
  /** Merge requests: source and target branch. */
  branches?: { source: string; target: string };
  reason: NotificationReason | null;
}): Mail {
  const { project, issue } = o;
  const headers: Record<string, string> = {
    "X-GitLab-Project": project.name,
    "X-GitLab-Project-Id": String(project.id),
    "X-GitLab-Project-Path": project.pathWithNamespace,
  };
  // Notify#add_model_headers: X-GitLab-<class>-ID, and -IID for what has one (snippets have none).
  const k = issue.kind === "issue" ? "Issue" : issue.kind === "merge_request" ? "MergeRequest" : "ProjectSnippet";
  headers[`X-GitLab-${k}-ID`] = String(issue.id);
  if (issue.kind !== "snippet") headers[`X-GitLab-${k}-IID`] = String(issue.iid);
  if (o.reason) headers["X-GitLab-NotificationReason"] = o.reason;
  const assignees = o.assigneeNames.join(", ");
  const changed = (what: string, before: string[], after: string[]) =>
    before.length
      ? `${what} changed from ${before.join(", ")} to ${after.join(", ") || "Unassigned"}`
      : `${what} changed to ${after.join(", ") || "Unassigned"}`;
  const mr = `Merge request ${issue.url}`;
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
    case "reassign_issue":
    case "reassign_merge_request":
      text = `${changed("Assignee", o.previousAssigneeNames, o.assigneeNames)}\n\n${issue.url}`;
      break;
    case "change_reviewer_merge_request":
      text = `${changed("Reviewer", o.previousReviewerNames ?? [], o.reviewerNames ?? [])}\n\n${issue.url}`;
      break;
    case "new_merge_request": {
      const b = o.branches;
      text = `${o.actorName} created a merge request:\n\n${issue.url}\n\n${b ? `* Source Branch: ${b.source}\n* Target Branch: ${b.target}\n\n` : ""}${assignees ? `Assignee: ${assignees}\n\n` : ""}${issue.description}`;
      break;
    }
    case "merge_merge_request":
      text = `${mr} was merged`;
      break;
    case "close_merge_request":
      text = `${mr} was closed by ${o.actorName}`;
      break;
    case "reopen_merge_request":
      text = `${mr} was reopened by ${o.actorName}`;
      break;
    case "merge_when_pipeline_succeeds":
      text = `Merge request ${issue.url} was scheduled to merge after pipeline succeeds by ${o.actorName}`;
      break;
    case "issue_due":
      text = `Issue #${issue.iid} is due on: ${issue.dueDate ? mediumDate(issue.dueDate) : ""}\n\n${issue.url}`;
      break;
    case "push_to_merge_request":
      text = `${o.actorName} pushed new commits to merge request !${issue.iid}\n\n${issue.url}`;
      break;
  }
  return { subject: subject(project, issue, o.action !== "new_issue" && o.action !== "new_merge_request"), text: `${text.trimEnd()}\n`, headers };
}
