import type { Namespace__Output as Namespace } from "@quarry/proto/types/identity/v1/Namespace";
import { avatarUrl, webUrl, type Urls } from "./urls.ts";

/** The namespace summary embedded in projects. */
export function namespaceSummary(ns: Namespace, urls: Urls) {
  return {
    id: Number(ns.id),
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: Number(ns.parentId) || null,
    // A group's own avatar; a personal namespace shows its owner's.
    avatar_url: ns.kind === "group" ? avatarUrl(urls, "group", ns.id, ns.avatar) : avatarUrl(urls, "user", ns.ownerId, ns.avatar),
    web_url: ns.kind === "group" ? webUrl(urls, `groups/${ns.fullPath}`) : webUrl(urls, ns.fullPath),
  };
}
