import type { MirrorRef__Output } from "@quarry/proto/types/mirror/v1/MirrorRef";
import type { DeleteMirrorResponse } from "@quarry/proto/types/mirror/v1/DeleteMirrorResponse";
import type { MirrorDeps } from "../deps.ts";
import { findMirror } from "./entity.ts";

/** Removes a mirror with its credentials; a sync in flight finds no row and writes nothing. */
export const deleteMirror =
  (deps: MirrorDeps) =>
  async (req: MirrorRef__Output): Promise<DeleteMirrorResponse> => {
    const row = await findMirror(deps, req);
    await deps.prisma.remoteMirror.deleteMany({ where: { id: row.id } });
    return {};
  };
