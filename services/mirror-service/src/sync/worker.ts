// The background side of mirror-service: a durable consumer of sync work, a durable consumer of
// push events (schedules every enabled mirror of the pushed project), and a sweep at start and on
// an interval that runs mirrors left `scheduled` (a lost message, a restart) or `started` with an
// expired lease (a crash mid-sync). Whichever bus is used, scheduled work survives a restart.
import { Subjects, type BusMessage, type MirrorSyncRequest, type PushEvent, type Subscription } from "@quarry/bus";
import type { MirrorDeps } from "../deps.ts";
import { runSync } from "./run-sync.ts";
import { scheduleMirrors } from "./schedule.ts";

export const SYNC_DURABLE = "mirror-service-sync";
export const PUSH_DURABLE = "mirror-service-push";

export interface SyncWorker {
  /** Runs the sweep now (tests; also what the interval does). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSyncWorker(deps: MirrorDeps, o: { sweepIntervalMs: number }): Promise<SyncWorker> {
  const subs: Subscription[] = [];
  const ackWaitMs = deps.sync.pushTimeoutMs + 60_000;
  subs.push(
    await deps.bus.subscribe<MirrorSyncRequest>(
      Subjects.mirrorSync,
      async (msg: BusMessage<MirrorSyncRequest>) => {
        const id = Number(msg.data?.mirror_id);
        if (Number.isInteger(id) && id > 0) await runSync(deps, id);
      },
      { durable: SYNC_DURABLE, ackWaitMs },
    ),
  );
  const onPush = async (msg: BusMessage<PushEvent>) => {
    const projectId = Number(msg.data?.project_id);
    if (Number.isInteger(projectId) && projectId > 0) await scheduleMirrors(deps, { projectId });
  };
  subs.push(await deps.bus.subscribe<PushEvent>(Subjects.push, onPush, { durable: PUSH_DURABLE }));
  subs.push(await deps.bus.subscribe<PushEvent>(Subjects.tagPush, onPush, { durable: `${PUSH_DURABLE}-tags` }));

  let running: Promise<void> | null = null;
  let stopped = false;
  const sweep = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        const due = await deps.prisma.remoteMirror.findMany({
          where: { OR: [{ updateStatus: "scheduled" }, { updateStatus: "started", leaseExpiresAt: { lt: new Date() } }] },
          select: { id: true },
          orderBy: { id: "asc" },
        });
        for (const { id } of due) {
          if (stopped) break;
          await runSync(deps, id).catch((err: unknown) => deps.log.warn({ err, mirror: id }, "mirror sweep sync failed"));
        }
      } catch (err) {
        deps.log.warn({ err }, "mirror sweep failed");
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void sweep(), o.sweepIntervalMs);
  timer.unref();
  void sweep();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const s of subs) await s.unsubscribe();
      await running;
    },
  };
}
