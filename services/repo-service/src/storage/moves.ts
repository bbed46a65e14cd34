// Repository storage moves (GitLab's RepositoryStorageMovable + UpdateRepositoryStorageMethods):
// scheduling marks the repository read-only and puts the move on the bus (through the outbox, in
// the same transaction as the record); a durable consumer copies the repository, verifies the
// copy's checksum, switches the storage record (replicated, writable again), then removes the
// source (finished, or cleanup failed). A move left scheduled or started by a stop is resumed at
// the next start.
import { randomBytes } from "node:crypto";
import { cp, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { enqueueEvent, type EventBus, type Subscription } from "@quarry/bus";
import { badRequest, notFound } from "@quarry/grpc";
import type { RepoDeps } from "../deps.ts";
import type { RepositoryStorageMove } from "../generated/prisma/client.ts";
import { repositoryChecksum } from "../git/checksum.ts";
import { isRepository } from "../git/git.ts";
import { refsChanged } from "../git/ref-writes.ts";
import type { RepositoryKind } from "./storages.ts";

/**
 * The bus subject of a move to run (`{move_id}`): work, not a domain event, so outside
 * `quarry.repo.>` (which hook-service records as events).
 */
export const STORAGE_MOVE_SUBJECT = "quarry.work.repo.storage_move";
/** The work-queue consumer running moves (one delivery per move among replicas). */
export const STORAGE_MOVE_DURABLE = "repo-service-storage-moves";

/** How long the source of a replicated move is kept for reads already under way there (then removed). */
export const STORAGE_MOVE_CLEANUP_DELAY_MS = 2000;

export type MoveContainer = "project" | "snippet";
export type MoveState = "initial" | "scheduled" | "started" | "replicated" | "finished" | "failed" | "cleanup_failed";

/**
 * Test seam, wired through startRepoService's options (never set in production): called with each
 * copied repository directory before its checksum is compared, so a test can damage the copy and
 * watch the move fail verification, or hold a move in `started` (until `stopping` aborts, when the
 * service stops).
 */
export interface StorageMoveHooks {
  afterCopy?(destinationDir: string, stopping: AbortSignal): Promise<void>;
}

/** The service stopped during the copy: the move stays `started` and is resumed at the next start. */
class MoveInterrupted extends Error {}

/** GitLab's state names as the API shows them (human_state_name: `cleanup failed`). */
export const humanState = (state: string): string => state.replace("_", " ");

/** The repositories a move carries: a project's repository and its wiki (when it has one), or the snippet's. */
function movedPaths(move: Pick<RepositoryStorageMove, "containerType" | "diskPath">): { diskPath: string; required: boolean }[] {
  const main = { diskPath: move.diskPath, required: true };
  if (move.containerType !== "project") return [main];
  return [main, { diskPath: move.diskPath.replace(/\.git$/, ".wiki.git"), required: false }];
}

/**
 * Creates a move in state `scheduled` for one repository and queues it (GitLab's
 * `storage_move.schedule`): the destination must be a configured storage (`is not included in the
 * list`), defaulting to one chosen by weight among the others; a repository already read-only
 * (being moved) is refused with `{"<container>": ["is read-only"]}`.
 */
export async function scheduleMove(
  deps: RepoDeps,
  o: { containerType: MoveContainer; containerId: number; diskPath: string; destination?: string },
): Promise<RepositoryStorageMove> {
  const { storages } = deps;
  const kind: RepositoryKind = o.containerType;
  if (o.destination && !storages.has(o.destination)) throw badRequest({ destination_storage_name: ["is not included in the list"] });
  storages.resolve(o.diskPath); // checks the path
  await storages.adopt(o.diskPath, kind, o.containerId);
  const source = storages.storageOf(o.diskPath);
  const destination = o.destination || storages.pick(source) || storages.configs.find((c) => c.name !== source)?.name;
  if (!destination) throw badRequest({ destination_storage_name: ["can't be blank"] });
  if (storages.isReadOnly(o.diskPath)) throw badRequest({ [o.containerType]: ["is read-only"] });
  const move = await deps.prisma.$transaction(async (tx) => {
    // Read-only first, under the row lock: a concurrent schedule of the same repository waits, then sees it.
    const marked = await tx.repositoryStorageRecord.updateMany({ where: { diskPath: o.diskPath, readOnly: false }, data: { readOnly: true } });
    if (marked.count === 0) throw badRequest({ [o.containerType]: ["is read-only"] });
    const created = await tx.repositoryStorageMove.create({
      data: {
        containerType: o.containerType,
        containerId: o.containerId,
        diskPath: o.diskPath,
        sourceStorageName: source,
        destinationStorageName: destination,
        state: "scheduled",
      },
    });
    await enqueueEvent(tx, STORAGE_MOVE_SUBJECT, { move_id: created.id });
    return created;
  });
  storages.markReadOnly(o.diskPath);
  deps.outbox.kick();
  return move;
}

/**
 * GitLab's ScheduleBulkRepositoryShardMovesService: a move for every recorded repository of the
 * kind on the source storage that is not already being moved. Answers how many were scheduled.
 */
export async function scheduleBulkMoves(deps: RepoDeps, o: { containerType: MoveContainer; source: string; destination?: string }): Promise<number> {
  let scheduled = 0;
  for (const r of await deps.storages.onStorage(o.source, o.containerType)) {
    if (deps.storages.isReadOnly(r.diskPath)) continue;
    try {
      await scheduleMove(deps, { containerType: o.containerType, containerId: r.containerId, diskPath: r.diskPath, destination: o.destination });
      scheduled++;
    } catch (err) {
      deps.log.warn({ err, diskPath: r.diskPath }, "bulk storage move: repository not scheduled");
    }
  }
  return scheduled;
}

/** One move of a container by id, or 404 (GitLab's `repository_storage_moves.find`). */
export async function findMove(deps: RepoDeps, containerType: MoveContainer, id: number, containerId?: number): Promise<RepositoryStorageMove> {
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw notFound();
  const move = await deps.prisma.repositoryStorageMove.findFirst({ where: { id, containerType, ...(containerId ? { containerId } : {}) } });
  if (!move) throw notFound();
  return move;
}

/** Waits `ms`, or less when the service stops meanwhile. */
function delay(ms: number, stopping: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stopping.removeEventListener("abort", done);
      resolve();
    }
    stopping.addEventListener("abort", done, { once: true });
  });
}

/** Removes a directory without leaving it half-deleted at its path (renamed aside first). */
async function removeRepository(dir: string): Promise<void> {
  const trash = `${dir}+${randomBytes(6).toString("hex")}.deleted`;
  try {
    await rename(dir, trash);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  await rm(trash, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Runs one move (the bus consumer's work; also what a restart resumes). Only a move in
 * `scheduled` or `started` runs; `started` again after an interruption starts the copy afresh.
 */
export async function runMove(
  deps: RepoDeps,
  moveId: number,
  hooks: StorageMoveHooks = {},
  stopping: AbortSignal = new AbortController().signal,
  cleanupDelayMs = 0,
): Promise<void> {
  if (stopping.aborted) return; // stopping: the move is resumed at the next start
  const claimed = await deps.prisma.repositoryStorageMove.updateMany({
    where: { id: moveId, state: { in: ["scheduled", "started"] } },
    data: { state: "started" },
  });
  if (claimed.count === 0) return;
  const move = await deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: moveId } });
  const { storages } = deps;
  const source = move.sourceStorageName;
  const destination = move.destinationStorageName;
  const sameStorage = source === destination || storages.root(source) === storages.root(destination);
  const copied: string[] = [];
  try {
    if (!sameStorage) {
      for (const { diskPath, required } of movedPaths(move)) {
        const from = storages.resolveOn(source, diskPath);
        const to = storages.resolveOn(destination, diskPath);
        if (!(await isRepository(from))) {
          if (required) throw new Error(`${move.containerType} repository ${diskPath} not found on storage ${source}`);
          continue;
        }
        await removeRepository(to); // a copy left by an interrupted run
        await mkdir(path.dirname(to), { recursive: true });
        copied.push(to);
        // A file copy of the bare repository (objects, refs, HEAD, config); hooks are not kept in it.
        await cp(from, to, { recursive: true, errorOnExist: false, force: true, verbatimSymlinks: true });
        refsChanged(to); // refs cached from an earlier life of this directory are gone
        await hooks.afterCopy?.(to, stopping);
        if (stopping.aborted) throw new MoveInterrupted();
        const [expected, actual] = await Promise.all([repositoryChecksum(from), repositoryChecksum(to)]);
        if (expected !== actual) {
          throw new Error(`Failed to verify ${diskPath.endsWith(".wiki.git") ? "wiki" : move.containerType} repository checksum from ${expected} to ${actual}`);
        }
      }
    }
  } catch (err) {
    for (const dir of copied) await removeRepository(dir).catch(() => {});
    if (err instanceof MoveInterrupted) {
      deps.log.info({ moveId }, "repository storage move interrupted by a stop; it resumes at the next start");
      return;
    }
    deps.log.warn({ err, moveId }, "repository storage move failed");
    await deps.prisma.repositoryStorageMove.update({ where: { id: moveId }, data: { state: "failed", errorMessage: (err as Error).message } });
    await storages.setReadOnly(move.diskPath, false);
    return;
  }

  // Replicated: the record points at the destination and the repository is writable again.
  const oldDirs = movedPaths(move).map((p) => storages.resolveOn(source, p.diskPath));
  const switched = await deps.prisma.$transaction(async (tx) => {
    const record = await tx.repositoryStorageRecord.updateMany({ where: { diskPath: move.diskPath }, data: { storage: destination, readOnly: false } });
    // Deleted meanwhile (DeleteRepository forgets the record): nothing to switch, the copy goes.
    await tx.repositoryStorageMove.update({
      where: { id: moveId },
      data: record.count ? { state: "replicated" } : { state: "failed", errorMessage: "the repository was deleted during the move" },
    });
    return record.count > 0;
  });
  if (!switched) {
    for (const dir of copied) await removeRepository(dir).catch(() => {});
    return;
  }
  storages.markMoved(move.diskPath, destination);
  // Reads that resolved the old directories just before the switch finish there first (new ones go
  // to the destination already); then the long-lived git processes holding them are closed.
  if (cleanupDelayMs > 0 && !sameStorage) await delay(cleanupDelayMs, stopping);
  for (const dir of oldDirs) {
    deps.catFile.forget(dir);
    deps.gitSessions.forget(dir);
  }
  if (sameStorage) {
    await deps.prisma.repositoryStorageMove.update({ where: { id: moveId }, data: { state: "finished" } });
    return;
  }
  try {
    for (const dir of oldDirs) await removeRepository(dir);
    await deps.prisma.repositoryStorageMove.update({ where: { id: moveId }, data: { state: "finished" } });
  } catch (err) {
    deps.log.warn({ err, moveId }, "repository storage move: the source could not be removed");
    await deps.prisma.repositoryStorageMove.update({ where: { id: moveId }, data: { state: "cleanup_failed", errorMessage: (err as Error).message } });
  }
}

/**
 * The consumer of queued moves, and the resumption of moves a stop interrupted (scheduled or
 * started: the in-process bus keeps nothing across a restart, and a NATS redelivery would only come
 * after the ack wait). Moves run one at a time per process. Unsubscribing (the service stopping)
 * interrupts a copy in progress instead of waiting for it: that move stays `started`.
 */
export async function subscribeToStorageMoves(
  deps: RepoDeps,
  bus: EventBus,
  o: { hooks?: StorageMoveHooks; cleanupDelayMs?: number } = {},
): Promise<Subscription[]> {
  const stopping = new AbortController();
  const run = (moveId: number) => runMove(deps, moveId, o.hooks, stopping.signal, o.cleanupDelayMs ?? STORAGE_MOVE_CLEANUP_DELAY_MS);
  const sub = await bus.subscribe<{ move_id: number }>(STORAGE_MOVE_SUBJECT, (msg) => run(Number(msg.data.move_id)), {
    durable: STORAGE_MOVE_DURABLE,
    ackWaitMs: 10 * 60_000,
  });
  const pending = await deps.prisma.repositoryStorageMove.findMany({ where: { state: { in: ["scheduled", "started"] } }, orderBy: { id: "asc" } });
  const resumedAt = Date.now();
  for (const m of pending) {
    await bus.publish(STORAGE_MOVE_SUBJECT, { move_id: m.id }, { msgId: `storage-move-${m.id}-resume-${resumedAt}` });
  }
  if (pending.length) deps.log.info({ moves: pending.map((m) => m.id) }, "resuming repository storage moves");
  return [
    {
      async unsubscribe() {
        stopping.abort();
        await sub.unsubscribe();
      },
    },
  ];
}
