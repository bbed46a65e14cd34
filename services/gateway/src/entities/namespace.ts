import type { Namespace__Output as Namespace } from "@quarry/proto/types/identity/v1/Namespace";
import { webUrl, type Urls } from "./urls.ts";

/** The namespace summary embedded in projects. */
export function namespaceSummary(ns: Namespace, urls: Urls) {
  return {
    id: Number(ns.id),
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: Number(ns.parentId) || null,
    avatar_url: null,
    web_url: ns.kind === "group" ? webUrl(urls, `groups/${ns.fullPath}`) : webUrl(urls, ns.fullPath),
  };
}
