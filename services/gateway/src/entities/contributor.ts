import type { Contributor__Output as Contributor } from "@quarry/proto/types/repo/v1/Contributor";

/** A repository contributor (GitLab's API::Entities::Contributor). */
export function contributorEntity(c: Contributor) {
  return { name: c.name, email: c.email, commits: Number(c.commits), additions: Number(c.additions), deletions: Number(c.deletions) };
}
