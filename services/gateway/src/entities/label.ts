import { labelTextColor } from "@quarry/gitlab";
import type { Label__Output as Label } from "@quarry/proto/types/collab/v1/Label";

/** How a label is presented: the counts only when asked (`with_counts`), as GitLab's entity does. */
export interface LabelOptions {
  withCounts?: boolean;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GitLab's Entities::LabelBasic and Entities::Label (what a group's label routes answer). */
export function groupLabelEntity(l: Label, o: LabelOptions = {}) {
  return {
    id: Number(l.id),
    name: l.name,
    description: l.description ?? null,
    // Rendered markdown in GitLab; the escaped text until Quarry renders markdown.
    description_html: l.description ? escapeHtml(l.description) : "",
    text_color: labelTextColor(l.color),
    color: l.color,
    ...(o.withCounts
      ? {
          open_issues_count: Number(l.openIssuesCount),
          closed_issues_count: Number(l.closedIssuesCount),
          open_merge_requests_count: Number(l.openMergeRequestsCount),
        }
      : {}),
    subscribed: l.subscribed,
  };
}

/** GitLab's Entities::ProjectLabel: a project's view of its own and its groups' labels. */
export function projectLabelEntity(l: Label, o: LabelOptions = {}) {
  return {
    ...groupLabelEntity(l, o),
    priority: l.priority ?? null,
    is_project_label: Number(l.projectId) > 0,
  };
}
