import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { existingId } from "../../http/params.ts";
import { accessEvictions } from "../../http/access-evictions.ts";
import { awardEmojiRouter } from "./award-emoji.ts";
import { branchesRouter } from "./branches.ts";
import { filesRouter } from "./files.ts";
import { commitsRouter } from "./commits.ts";
import { groupsRouter } from "./groups.ts";
import { hooksRouter } from "./hooks.ts";
import { issuesRouter } from "./issues.ts";
import { deploymentsRouter } from "./deployments.ts";
import { environmentsRouter } from "./environments.ts";
import { jobsRouter } from "./jobs.ts";
import { mergeRequestPipelinesRouter } from "./merge-request-pipelines.ts";
import { jobTokenScopeRouter } from "./job-token-scope.ts";
import { membersRouter } from "./members.ts";
import { commitMergeRequestsRouter, mergeRequestChangesRouter } from "./merge-request-changes.ts";
import { mergeRequestContextCommitsRouter } from "./merge-request-context-commits.ts";
import { mergeRequestListsRouter } from "./merge-request-lists.ts";
import { mergeRequestMergesRouter } from "./merge-request-merges.ts";
import { mergeRequestsRouter } from "./merge-requests.ts";
import { personalAccessTokensRouter } from "./personal-access-tokens.ts";
import { pipelinesRouter } from "./pipelines.ts";
import { projectsRouter } from "./projects.ts";
import { protectedBranchesRouter } from "./protected-branches.ts";
import { tagsRouter } from "./tags.ts";
import { repositoryRouter } from "./repository.ts";
import { remoteMirrorsRouter } from "./remote-mirrors.ts";
import { jobArtifactsRouter } from "./job-artifacts.ts";
import { labelsRouter } from "./labels.ts";
import { milestonesRouter } from "./milestones.ts";
import { notesRouter } from "./notes.ts";
import { snippetsRouter } from "./snippets.ts";
import { runnerJobsRouter } from "./runner-jobs.ts";
import { runnersRouter } from "./runners.ts";
import { submodulesRouter } from "./submodules.ts";
import { usersRouter } from "./users.ts";
import { versionRouter } from "./version.ts";
import { openApiRouter } from "./openapi.ts";
import { mergeRequestApprovalsRouter } from "./merge-request-approvals.ts";
import { notificationSettingsRouter } from "./notification-settings.ts";
import { starsRouter } from "./stars.ts";
import { uploadsRouter } from "./uploads.ts";
import { errorTrackingCollectorRouter } from "./error-tracking-collector.ts";
import { errorTrackingRouter } from "./error-tracking.ts";
import { auditEventsRouter } from "./audit-events.ts";
import { eventsRouter } from "./events.ts";

/** Everything under /api/v4, one router per GitLab resource. */
import { wikisRouter } from "./wikis.ts";
import { customAttributesRouter } from "./custom-attributes.ts";
import { applicationSettingsRouter } from "./application-settings.ts";
import { impersonationTokensRouter } from "./impersonation-tokens.ts";
import { keysRouter } from "./keys.ts";
import { deployKeysRouter } from "./deploy-keys.ts";
import { emailsRouter } from "./emails.ts";
import { gpgKeysRouter } from "./gpg-keys.ts";
import { serviceAccountsRouter } from "./service-accounts.ts";
import { twoFactorRouter } from "./two-factor.ts";
import { deployTokensRouter } from "./deploy-tokens.ts";
import { enterpriseUsersRouter } from "./enterprise-users.ts";
import { verifiedDomainsRouter } from "./verified-domains.ts";
import { repositoryStorageMovesRouter } from "./repository-storage-moves.ts";

export function v4Router(deps: GatewayDeps): Router {
  const r = Router();
  // Writes evict the authorization answers they may change before they run (http/access-evictions.ts).
  r.use(accessEvictions(deps));
  // An id beyond PostgreSQL's integer never reaches a service, whichever route it is for.
  r.use("/projects/:id", existingId("Project"));
  r.use("/groups/:id", existingId("Group"));
  r.use("/users/:id", existingId("User"));
  r.use(versionRouter(deps));
  r.use(openApiRouter(deps, v4Router));
  r.use(usersRouter(deps));
  r.use(personalAccessTokensRouter(deps));
  r.use(groupsRouter(deps));
  r.use(hooksRouter(deps));
  r.use(membersRouter(deps));
  r.use(projectsRouter(deps));
  r.use(branchesRouter(deps));
  r.use(protectedBranchesRouter(deps));
  r.use(tagsRouter(deps));
  r.use(filesRouter(deps));
  // Before the commits router, whose `*sha` would take `<sha>/merge_requests`.
  r.use(commitMergeRequestsRouter(deps));
  r.use(commitsRouter(deps));
  r.use(repositoryRouter(deps));
  r.use(submodulesRouter(deps));
  r.use(jobTokenScopeRouter(deps));
  r.use(remoteMirrorsRouter(deps));
  r.use(labelsRouter(deps));
  r.use(milestonesRouter(deps));
  // issues
  r.use(issuesRouter(deps));

  // notes
  r.use(notesRouter(deps));

  // snippets
  r.use(snippetsRouter(deps));

  // wikis
  r.use(wikisRouter(deps));

  // award emoji
  r.use(awardEmojiRouter(deps));

  // merge requests
  r.use(mergeRequestsRouter(deps));
  r.use(mergeRequestChangesRouter(deps));

  // merge request listing
  r.use(mergeRequestListsRouter(deps));

  // merge request merging and approvals
  r.use(mergeRequestMergesRouter(deps));
  r.use(mergeRequestApprovalsRouter(deps));

  // merge request context commits
  r.use(mergeRequestContextCommitsRouter(deps));

  // environments and deployments
  r.use(environmentsRouter(deps));
  r.use(deploymentsRouter(deps));
  r.use(mergeRequestPipelinesRouter(deps));

  r.use(runnersRouter(deps));
  r.use(runnerJobsRouter(deps));
  // Before any router with /projects/:id/jobs/:job_id: `artifacts` is not a job id.
  r.use(jobArtifactsRouter(deps));
  r.use(pipelinesRouter(deps));
  r.use(jobsRouter(deps));

  // starring and notification settings
  r.use(starsRouter(deps));
  r.use(notificationSettingsRouter(deps));
  // uploads
  r.use(uploadsRouter(deps));
  // error tracking (settings, client keys, Quarry's errors lists) and its Sentry collector
  r.use(errorTrackingRouter(deps));
  r.use(errorTrackingCollectorRouter(deps));
  // audit events (instance, group, project)
  r.use(auditEventsRouter(deps));
  // contribution events (GitLab's Events API) and /user/activities
  r.use(eventsRouter(deps));
  // users administration: impersonation tokens, custom attributes of users, groups and projects
  r.use(impersonationTokensRouter(deps));
  r.use(customAttributesRouter(deps));
  // SSH keys and deploy keys
  r.use(keysRouter(deps));
  r.use(deployKeysRouter(deps));
  // service accounts (instance and group) and users' e-mail addresses
  r.use(serviceAccountsRouter(deps));
  r.use(emailsRouter(deps));
  r.use(twoFactorRouter(deps));
  // deploy tokens (instance, project and group)
  r.use(deployTokensRouter(deps));
  // GPG keys (signature verification: commits.ts)
  r.use(gpgKeysRouter(deps));
  // enterprise users of top-level groups and the verified domains that claim them
  r.use(enterpriseUsersRouter(deps));
  r.use(verifiedDomainsRouter(deps));
  // instance settings (GET/PUT /application/settings)
  r.use(applicationSettingsRouter(deps));
  // snippet and project repository storage moves (administrators)
  r.use(repositoryStorageMovesRouter(deps));
  return r;
}
