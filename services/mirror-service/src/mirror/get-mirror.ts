import type { MirrorRef__Output } from "@quarry/proto/types/mirror/v1/MirrorRef";
import type { RemoteMirror } from "@quarry/proto/types/mirror/v1/RemoteMirror";
import type { MirrorDeps } from "../deps.ts";
import { findMirror, toMirrorMessage } from "./entity.ts";

/** One mirror of a project; `404 Not found` otherwise. */
export const getMirror =
  (deps: MirrorDeps) =>
  async (req: MirrorRef__Output): Promise<RemoteMirror> =>
    toMirrorMessage(deps, await findMirror(deps, req));
