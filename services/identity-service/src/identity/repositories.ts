import type { IdentityDeps } from "../deps.ts";
import { diskPathFor } from "./convert.ts";

/**
 * Removes repositories after their projects' rows are gone. A failure is logged, not thrown:
 * the rows are already deleted, and an orphaned directory is harmless and can be swept later.
 */
export async function removeRepositories(deps: IdentityDeps, projectIds: number[]): Promise<void> {
  for (const projectId of projectIds) {
    try {
      await deps.repo.DeleteRepository({ projectId, diskPath: diskPathFor(projectId) });
    } catch (err) {
      deps.log.warn({ err, projectId }, "repository removal failed");
    }
  }
}
