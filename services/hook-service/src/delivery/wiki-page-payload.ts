// GitLab's wiki page webhook payload (Gitlab::DataBuilder::WikiPage) from repo-service's event:
// the user and project hook attributes come from identity-service; the wiki's and the page's
// web URLs are built below the instance's external URL.
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, userHookAttrs } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

/** The payload hooks receive, in GitLab's key order; null when the project is gone. */
export async function buildWikiPagePayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  const projectAttrs = projectHookAttrs(project, base);
  const full = project.pathWithNamespace;
  const a = (data.object_attributes ?? {}) as Payload;
  const pageUrl = `${projectAttrs.web_url}/-/wikis/${String(a.slug)}`;
  return {
    object_kind: "wiki_page",
    user: user ? userHookAttrs(user, base) : null,
    project: projectAttrs,
    // ProjectWiki#hook_attrs.
    wiki: {
      web_url: `${projectAttrs.web_url}/-/wikis/home`,
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
