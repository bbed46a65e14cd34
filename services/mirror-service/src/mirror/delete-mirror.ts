import type { MirrorRef__Output } from "@quarry/proto/types/mirror/v1/MirrorRef";
import type { DeleteMirrorResponse } from "@quarry/proto/types/mirror/v1/DeleteMirrorResponse";
import type { MirrorDeps } from "../deps.ts";
import { findMirror } from "./entity.ts";
import { enqueueMirrorAudit, type WithActor } from "./audit.ts";

/** Removes a mirror with its credentials; a sync in flight finds no row and writes nothing. */
export const deleteMirror =
  (deps: MirrorDeps) =>
  async (req: WithActor<MirrorRef__Output>): Promise<DeleteMirrorResponse> => {
    const row = await findMirror(deps, req);
    await deps.prisma.$transaction(async (tx) => {
      const { count } = await tx.remoteMirror.deleteMany({ where: { id: row.id } });
      if (count) await enqueueMirrorAudit(tx, "destroyed", row, req.actor);
    });
    deps.outbox?.kick();
    return {};
  };
