// GitLab's wiki page webhook payload (Gitlab::DataBuilder::WikiPage) from repo-service's event:
// the user and project (or, for a group wiki, group) hook attributes come from identity-service;
// the wiki's and the page's web URLs are built below the instance's external URL.
import { isNotFound } from "@quarry/grpc";
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, userHookAttrs } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

/** The payload hooks receive, in GitLab's key order; null when the project (or group) is gone. */
export async function buildWikiPagePayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  if (!Number(data.project_id) && Number(data.group_id) > 0) return buildGroupWikiPagePayload(deps, actor, data);
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  const projectAttrs = projectHookAttrs(project, base);
  return {
    object_kind: "wiki_page",
    user: user ? userHookAttrs(user, base) : null,
    project: projectAttrs,
    ...wikiParts(base, project.pathWithNamespace, projectAttrs.web_url, data),
  };
}

/**
 * A group wiki's page (GitLab's group wikis): `group` (EE's Group#hook_attrs) where a project
 * wiki's payload has `project`; the wiki's web pages are below `/groups/<full path>/-/wikis`.
 */
async function buildGroupWikiPagePayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const orGone = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      if (isNotFound(err)) return null;
      throw err;
    });
  const [group, user] = await Promise.all([
    orGone(deps.identity.GetGroup({ actor, idOrPath: String(data.group_id) })),
    orGone(deps.identity.GetUser({ actor, id: Number(data.user_id) })),
  ]);
  if (!group) return null;
  return {
    object_kind: "wiki_page",
    user: user ? userHookAttrs(user, base) : null,
    group: { group_name: group.name, group_path: group.path, group_id: Number(group.id), full_path: group.fullPath },
    ...wikiParts(base, group.fullPath, `${base}/groups/${group.fullPath}`, data),
  };
}

/** `wiki` (Wiki#hook_attrs) and `object_attributes` (the page's hook attributes with its URLs). */
function wikiParts(base: string, full: string, webUrl: string, data: Payload): Payload {
  const a = (data.object_attributes ?? {}) as Payload;
  const pageUrl = `${webUrl}/-/wikis/${String(a.slug)}`;
  return {
    wiki: {
      web_url: `${webUrl}/-/wikis/home`,
      git_ssh_url: `git@${new URL(base).hostname}:${full}.wiki.git`,
      git_http_url: `${base}/${full}.wiki.git`,
      path_with_namespace: `${full}.wiki`,
      default_branch: "main",
    },
    object_attributes: {
      title: a.title,
      content: a.content,
      format: a.format,
      message: a.message,
      slug: a.slug,
      url: pageUrl,
      action: a.action,
      diff_url: `${pageUrl}/diff?version_id=${String(a.version_id)}`,
      version_id: a.version_id,
    },
  };
}
