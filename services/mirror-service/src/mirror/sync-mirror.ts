import { badRequest } from "@quarry/grpc";
import type { MirrorRef__Output } from "@quarry/proto/types/mirror/v1/MirrorRef";
import type { SyncMirrorResponse } from "@quarry/proto/types/mirror/v1/SyncMirrorResponse";
import type { MirrorDeps } from "../deps.ts";
import { scheduleMirrors } from "../sync/schedule.ts";
import { findMirror } from "./entity.ts";

/**
 * Forces an update (GitLab's RemoteMirrors::SyncService): a disabled mirror is refused with
 * GitLab's message; otherwise the mirror is scheduled (nothing more when it already is; a
 * running sync is followed by another one).
 */
export const syncMirror =
  (deps: MirrorDeps) =>
  async (req: MirrorRef__Output): Promise<SyncMirrorResponse> => {
    const row = await findMirror(deps, req);
    if (!row.enabled) throw badRequest("Cannot proceed with the push mirroring. Please verify your mirror configuration.");
    await scheduleMirrors(deps, { id: row.id });
    return {};
  };
