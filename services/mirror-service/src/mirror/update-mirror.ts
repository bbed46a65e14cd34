import { badRequest } from "@quarry/grpc";
import type { RemoteMirror } from "@quarry/proto/types/mirror/v1/RemoteMirror";
import type { UpdateMirrorRequest__Output } from "@quarry/proto/types/mirror/v1/UpdateMirrorRequest";
import type { MirrorDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { generateSshKeyPair, openCredentials, sealCredentials } from "./credentials.ts";
import { AUTH_METHODS, findMirror, toMirrorMessage, validateRegex } from "./entity.ts";
import { enqueueMirrorAudit, type WithActor } from "./audit.ts";

/**
 * Changes the given settings of a mirror (GitLab's RemoteMirrors::UpdateService). Setting
 * only_protected_branches clears the regex; setting a regex turns only_protected_branches off.
 * Switching to ssh_public_key generates a key pair when the mirror has none.
 */
export const updateMirror =
  (deps: MirrorDeps) =>
  async (req: WithActor<UpdateMirrorRequest__Output>): Promise<RemoteMirror> => {
    const row = await findMirror(deps, req);
    const data: Prisma.RemoteMirrorUpdateInput = {};
    if (req.enabled !== undefined) data.enabled = req.enabled;
    if (req.keepDivergentRefs !== undefined) data.keepDivergentRefs = req.keepDivergentRefs;
    if (req.authMethod !== undefined) {
      if (!AUTH_METHODS.includes(req.authMethod)) throw badRequest({ auth_method: ["is not included in the list"] });
      data.authMethod = req.authMethod;
      if (req.authMethod === "ssh_public_key" && !row.sshPublicKey) {
        const creds = openCredentials(deps.box, row.encryptedCredentials);
        const pair = generateSshKeyPair(`quarry-mirror-project-${row.projectId}`);
        data.encryptedCredentials = sealCredentials(deps.box, { ...creds, sshPrivateKey: pair.privateKey });
        data.sshPublicKey = pair.publicKey;
      }
    }
    if (req.mirrorBranchRegex !== undefined) {
      const regex = req.mirrorBranchRegex || null;
      if (regex) {
        validateRegex(regex);
        data.onlyProtectedBranches = false;
      }
      data.mirrorBranchRegex = regex;
    }
    if (req.onlyProtectedBranches !== undefined) {
      data.onlyProtectedBranches = req.onlyProtectedBranches;
      if (req.onlyProtectedBranches) data.mirrorBranchRegex = null;
    }
    const updated = await deps.prisma.$transaction(async (tx) => {
      const changed = await tx.remoteMirror.update({ where: { id: row.id }, data });
      await enqueueMirrorAudit(tx, "updated", changed, req.actor);
      return changed;
    });
    deps.outbox?.kick();
    return toMirrorMessage(deps, updated);
  };
