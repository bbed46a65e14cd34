import { badRequest } from "@quarry/grpc";
import type { CreateMirrorRequest__Output } from "@quarry/proto/types/mirror/v1/CreateMirrorRequest";
import type { RemoteMirror } from "@quarry/proto/types/mirror/v1/RemoteMirror";
import type { MirrorDeps } from "../deps.ts";
import { generateSshKeyPair, sealCredentials, type MirrorCredentials } from "./credentials.ts";
import { AUTH_METHODS, projectIdOf, toMirrorMessage, validateRegex } from "./entity.ts";
import { splitUrl, validateMirrorUrl } from "./urls.ts";
import { enqueueMirrorAudit, type WithActor } from "./audit.ts";

/**
 * Creates a mirror (GitLab's RemoteMirrors::CreateService): the URL is checked against the
 * outbound policy (`{"message":{"url":["is blocked: …"]}}`), its user name and password are split
 * off and sealed, an ssh_public_key mirror gets a fresh ed25519 key pair. Disabled unless
 * `enabled`; only_protected_branches wins over a regex. A new mirror reports `none`.
 */
export const createMirror =
  (deps: MirrorDeps) =>
  async (req: WithActor<CreateMirrorRequest__Output>): Promise<RemoteMirror> => {
    const projectId = projectIdOf(req.projectId);
    if (!req.diskPath) throw badRequest("disk_path is missing");
    const parts = splitUrl(req.url);
    if (!parts) throw badRequest({ url: ["is blocked: URI is invalid"] });
    await validateMirrorUrl(parts.url, deps.policy);
    const authMethod = req.authMethod ?? "password";
    if (!AUTH_METHODS.includes(authMethod)) throw badRequest({ auth_method: ["is not included in the list"] });
    const onlyProtected = req.onlyProtectedBranches ?? false;
    let regex = req.mirrorBranchRegex || null;
    if (onlyProtected) regex = null;
    if (regex) validateRegex(regex);

    const creds: MirrorCredentials = { user: parts.user, password: parts.password };
    let sshPublicKey: string | null = null;
    if (authMethod === "ssh_public_key") {
      const pair = generateSshKeyPair(`quarry-mirror-project-${projectId}`);
      creds.sshPrivateKey = pair.privateKey;
      sshPublicKey = pair.publicKey;
    }
    const row = await deps.prisma.$transaction(async (tx) => {
      const created = await tx.remoteMirror.create({
        data: {
          projectId,
          diskPath: req.diskPath,
          url: parts.url,
          enabled: req.enabled ?? false,
          authMethod,
          onlyProtectedBranches: onlyProtected,
          keepDivergentRefs: req.keepDivergentRefs ?? false,
          mirrorBranchRegex: regex,
          encryptedCredentials: sealCredentials(deps.box, creds),
          sshPublicKey,
        },
      });
      await enqueueMirrorAudit(tx, "created", created, req.actor);
      return created;
    });
    deps.outbox?.kick();
    return toMirrorMessage(deps, row);
  };
