// Scheduling: the database row is the truth, the bus message only a wake-up. A mirror moves to
// `scheduled` once (a second request while it is scheduled changes nothing: coalesced); a request
// while it runs sets `sync_again`, and the running sync schedules another when it ends.
import { Subjects, type MirrorSyncRequest } from "@quarry/bus";
import type { MirrorDeps } from "../deps.ts";

/**
 * Schedules one mirror (`{ id }`, whatever its enabled flag: the caller checked) or every enabled
 * mirror of a project (`{ projectId }`, after a push). Returns the ids newly scheduled.
 */
export async function scheduleMirrors(deps: MirrorDeps, which: { id: number } | { projectId: number }): Promise<number[]> {
  const where = "id" in which ? { id: which.id } : { projectId: which.projectId, enabled: true };
  const ids = await deps.prisma.$transaction(async (tx) => {
    const candidates = await tx.remoteMirror.findMany({ where: { ...where, updateStatus: { notIn: ["scheduled", "started"] } }, select: { id: true } });
    const scheduled: number[] = [];
    for (const { id } of candidates) {
      // Compare-and-set: a concurrent request that got there first wins, this one coalesces.
      const n = await tx.remoteMirror.updateMany({ where: { id, updateStatus: { notIn: ["scheduled", "started"] } }, data: { updateStatus: "scheduled" } });
      if (n.count) scheduled.push(id);
    }
    await tx.remoteMirror.updateMany({ where: { ...where, updateStatus: "started" }, data: { syncAgain: true } });
    return scheduled;
  });
  for (const id of ids) await publishSync(deps, id);
  return ids;
}

/** Wakes a worker for a scheduled mirror. A lost message is found by the sweep. */
export async function publishSync(deps: MirrorDeps, id: number): Promise<void> {
  try {
    await deps.bus.publish<MirrorSyncRequest>(Subjects.mirrorSync, { mirror_id: id });
  } catch (err) {
    deps.log.warn({ err, mirror: id }, "could not publish mirror sync; the sweep will run it");
  }
}
