import type { MirrorPublicKey } from "@quarry/proto/types/mirror/v1/MirrorPublicKey";
import type { MirrorRef__Output } from "@quarry/proto/types/mirror/v1/MirrorRef";
import type { MirrorDeps } from "../deps.ts";
import { findMirror, mirrorNotFound } from "./entity.ts";

/** The public key of an ssh_public_key mirror (GitLab: `not_found!` for other mirrors). */
export const getMirrorPublicKey =
  (deps: MirrorDeps) =>
  async (req: MirrorRef__Output): Promise<MirrorPublicKey> => {
    const row = await findMirror(deps, req);
    if (row.authMethod !== "ssh_public_key" || !row.sshPublicKey) throw mirrorNotFound();
    return { publicKey: row.sshPublicKey };
  };
