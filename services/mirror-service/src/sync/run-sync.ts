// One sync of one mirror: claim it atomically (scheduled → started, or a started one whose lease
// ran out after a crash), check the URL against the outbound policy again, have repo-service push,
// and record the outcome (finished / failed with GitLab's messages). Two workers never push the
// same mirror at once: only one UPDATE … WHERE update_status = 'scheduled' matches.
import { randomUUID } from "node:crypto";
import { OutboundUrlError } from "@quarry/outbound";
import type { MirrorDeps } from "../deps.ts";
import { openCredentials } from "../mirror/credentials.ts";
import { checkMirrorUrl } from "../mirror/urls.ts";
import { publishSync } from "./schedule.ts";

export type SyncOutcome = "finished" | "failed" | "skipped";

/** GitLab's last_error for refs left alone (Projects::UpdateRemoteMirrorService). */
export function divergedMessage(refs: readonly string[]): string {
  return `Some refs have diverged and have not been updated on the remote:\n\n${refs.join("\n")}`;
}

export async function runSync(deps: MirrorDeps, id: number): Promise<SyncOutcome> {
  const token = randomUUID();
  const now = new Date();
  const claimed = await deps.prisma.remoteMirror.updateMany({
    where: { id, OR: [{ updateStatus: "scheduled" }, { updateStatus: "started", leaseExpiresAt: { lt: now } }] },
    data: {
      updateStatus: "started",
      lastUpdateStartedAt: now,
      syncToken: token,
      syncAgain: false,
      leaseExpiresAt: new Date(now.getTime() + deps.sync.leaseMs),
    },
  });
  if (!claimed.count) return "skipped";
  const row = await deps.prisma.remoteMirror.findFirst({ where: { id, syncToken: token } });
  if (!row) return "skipped";

  let error = "";
  let divergent: string[] = [];
  let knownHosts: { lines: string; fingerprints: string[] } | null = null;
  try {
    const checked = await checkMirrorUrl(row.url, deps.policy);
    const creds = openCredentials(deps.box, row.encryptedCredentials);
    const ssh = checked.url.protocol === "ssh:";
    const res = await deps.repo.UpdateRemoteMirror(
      {
        diskPath: row.diskPath,
        projectId: row.projectId,
        url: row.url,
        credentials: ssh
          ? { sshUsername: creds.user ?? "", sshPrivateKey: row.authMethod === "ssh_public_key" ? (creds.sshPrivateKey ?? "") : "" }
          : { httpUsername: creds.user ?? "", httpPassword: creds.password ?? "" },
        onlyProtectedBranches: row.onlyProtectedBranches,
        branchRegex: row.onlyProtectedBranches ? "" : (row.mirrorBranchRegex ?? ""),
        keepDivergentRefs: row.keepDivergentRefs,
        resolvedAddresses: checked.addresses,
        knownHosts: row.sshKnownHosts ?? "",
        timeoutMs: deps.sync.pushTimeoutMs,
      },
      { deadlineMs: deps.sync.pushTimeoutMs + 30_000 },
    );
    error = res.error;
    divergent = res.divergentRefs;
    if (ssh && !row.sshKnownHosts && res.knownHosts.trim()) knownHosts = { lines: res.knownHosts, fingerprints: res.hostKeyFingerprints };
  } catch (err) {
    if (err instanceof OutboundUrlError) error = err.message;
    else {
      deps.log.warn({ err, mirror: id }, "mirror sync failed");
      error = (err as { details?: string }).details || (err as Error).message || "The remote mirror update failed";
    }
  }

  const finishedAt = new Date();
  const failed = Boolean(error) || divergent.length > 0;
  const current = await deps.prisma.remoteMirror.findFirst({ where: { id, syncToken: token }, select: { syncAgain: true } });
  if (!current) return "skipped"; // deleted, or reclaimed after our lease ran out
  const again = current.syncAgain;
  const done = await deps.prisma.remoteMirror.updateMany({
    where: { id, syncToken: token },
    data: {
      updateStatus: again ? "scheduled" : failed ? "failed" : "finished",
      lastUpdateAt: finishedAt,
      ...(failed ? { lastError: error || divergedMessage(divergent) } : { lastError: null, lastSuccessfulUpdateAt: finishedAt }),
      ...(knownHosts ? { sshKnownHosts: knownHosts.lines, hostKeyFingerprints: knownHosts.fingerprints } : {}),
      syncToken: null,
      syncAgain: false,
      leaseExpiresAt: null,
    },
  });
  if (done.count && again) await publishSync(deps, id);
  deps.log.info({ mirror: id, failed, again }, "mirror sync done");
  return failed ? "failed" : "finished";
}
