import type { Group__Output as Group } from "@quarry/proto/types/identity/v1/Group";
import type { JobTokenScope__Output as JobTokenScope } from "@quarry/proto/types/ci/v1/JobTokenScope";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { projectSimple } from "./project.ts";
import { webUrl, type Urls } from "./urls.ts";

/** GitLab's ProjectJobTokenScope entity. */
export function jobTokenScopeEntity(s: JobTokenScope) {
  return { inbound_enabled: s.inboundEnabled, outbound_enabled: s.outboundEnabled };
}

/** A project of the inbound allowlist: the limited project fields the spec lists. */
export function allowlistProjectEntity(p: Project, urls: Urls) {
  const { readme_url: _readme, forks_count: _forks, ...fields } = projectSimple(p, urls);
  return fields;
}

/** A group of the allowlist (GitLab's BasicGroupDetails). */
export function allowlistGroupEntity(g: Group, urls: Urls) {
  return { id: Number(g.id), web_url: webUrl(urls, `groups/${g.fullPath}`), name: g.name };
}

/** The link a POST creates (ProjectScopeLink / GroupScopeLink). */
export function projectLinkEntity(sourceProjectId: number, targetProjectId: number) {
  return { source_project_id: sourceProjectId, target_project_id: targetProjectId };
}

export function groupLinkEntity(sourceProjectId: number, targetGroupId: number) {
  return { source_project_id: sourceProjectId, target_group_id: targetGroupId };
}
