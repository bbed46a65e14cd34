import type { TreeEntry__Output as TreeEntry } from "@quarry/proto/types/repo/v1/TreeEntry";

/** A tree entry (GitLab's API::Entities::TreeObject); `mode` is six octal digits ("040000"). */
export function treeEntryEntity(e: TreeEntry) {
  return { id: e.id, name: e.name, type: e.type, path: e.path, mode: e.mode };
}
