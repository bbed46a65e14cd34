import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { ResolvedParent } from "../label/parent.ts";

/** A project as a merge request request sees it: the caller's level there and the project itself (access.ts resolves it). */
export interface MergeRequestScope {
  parent: ResolvedParent;
  project: Project;
}
