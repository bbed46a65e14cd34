import type { RemoteMirror__Output as RemoteMirror } from "@quarry/proto/types/mirror/v1/RemoteMirror";

/**
 * GitLab's Entities::RemoteMirror (with the EE fields mirror_branch_regex and host_keys). `url`
 * arrives already masked (safe_url); credentials never reach the gateway.
 */
export function remoteMirrorEntity(m: RemoteMirror) {
  return {
    id: Number(m.id),
    enabled: m.enabled,
    url: m.url,
    update_status: m.updateStatus,
    last_update_at: m.lastUpdateAt ?? null,
    last_update_started_at: m.lastUpdateStartedAt ?? null,
    last_successful_update_at: m.lastSuccessfulUpdateAt ?? null,
    last_error: m.lastError ?? null,
    only_protected_branches: m.onlyProtectedBranches,
    keep_divergent_refs: m.keepDivergentRefs,
    auth_method: m.authMethod,
    mirror_branch_regex: m.mirrorBranchRegex ?? null,
    host_keys: m.hostKeyFingerprints.map((fingerprint_sha256) => ({ fingerprint_sha256 })),
  };
}
