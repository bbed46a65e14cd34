/** What runner creation, registration and verification answer (GitLab's RunnerRegistrationDetails). */
export function runnerTokenEntity(id: number, token: string) {
  return { id, token, token_expires_at: null };
}

/** A runner as ci-service describes it (the fields the Runner entity needs). */
export interface RunnerFacts {
  id: number | string;
  description: string;
  paused: boolean;
  runnerType: string;
  createdAt: string;
  contactedAt: string;
}

/** Ci::Runner::ONLINE_CONTACT_TIMEOUT and STALE_TIMEOUT. */
const ONLINE_MS = 2 * 3600_000;
const STALE_MS = 7 * 24 * 3600_000;

/**
 * GitLab's API::Entities::Ci::Runner. `status` is its deprecated_rest_status (stale, never_contacted,
 * online, offline, paused); `job_execution_status` is "active" while the runner runs a job.
 */
export function runnerEntity(r: RunnerFacts, busy: boolean, now = Date.now()) {
  const contacted = r.contactedAt ? Date.parse(r.contactedAt) : null;
  const created = Date.parse(r.createdAt);
  const online = contacted !== null && contacted > now - ONLINE_MS;
  const stale = Math.max(created, contacted ?? 0) <= now - STALE_MS;
  const status = stale ? "stale" : contacted === null ? "never_contacted" : r.paused ? "paused" : online ? "online" : "offline";
  return {
    id: Number(r.id),
    description: r.description,
    ip_address: null,
    active: !r.paused,
    paused: r.paused,
    is_shared: r.runnerType === "instance_type",
    runner_type: r.runnerType,
    name: null,
    online,
    created_at: r.createdAt,
    status,
    job_execution_status: busy ? "active" : "idle",
  };
}
