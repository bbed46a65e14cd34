import { isPositiveInt32 } from "@quarry/gitlab";
import path from "node:path";
import { badRequest, paramError } from "@quarry/grpc";
import { isValidBranchName } from "./git/git.ts";

const INVALID_DISK_PATH = "disk_path must be a relative path ending in .git, without empty, '.' or '..' segments";

/**
 * Resolves a request's disk path ("@hashed/ab/cd/<sha256>.git") inside the storage root.
 * Absolute paths, `..`/`.`/empty segments, backslashes and paths not ending in `.git` are refused,
 * so a request can neither escape the root nor name one of its parent folders (DeleteRepository
 * removes what it names). The checks also keep the recorded path canonical.
 */
export function repositoryPath(storageRoot: string, diskPath: string): string {
  const segments = diskPath.split("/");
  const last = segments[segments.length - 1] ?? "";
  if (
    !diskPath ||
    diskPath.length > 1024 ||
    diskPath.includes("\0") ||
    diskPath.includes("\\") ||
    path.isAbsolute(diskPath) ||
    segments.some((s) => s === "" || s === "." || s === "..") ||
    !last.endsWith(".git") ||
    last === ".git"
  ) {
    throw badRequest(INVALID_DISK_PATH);
  }
  const root = path.resolve(storageRoot);
  const resolved = path.resolve(root, diskPath);
  const relative = path.relative(root, resolved);
  if (!relative || relative.startsWith("..") || path.isAbsolute(relative)) throw badRequest(INVALID_DISK_PATH);
  return resolved;
}

/** Project ids are identity-service's (positive 32-bit) ids. */
export function validateProjectId(projectId: number): number {
  if (!isPositiveInt32(projectId)) {
    throw paramError("project_id does not have a valid value");
  }
  return projectId;
}

/** Branch names as git accepts them (`git check-ref-format --branch`). */
export async function validateBranchName(branch: string, field = "default_branch"): Promise<string> {
  if (!(await isValidBranchName(branch))) throw paramError(`${field} does not have a valid value`);
  return branch;
}
