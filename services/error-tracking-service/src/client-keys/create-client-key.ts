import { randomBytes } from "node:crypto";
import type { ClientKey } from "@quarry/proto/types/errortracking/v1/ClientKey";
import type { ProjectRef__Output } from "@quarry/proto/types/errortracking/v1/ProjectRef";
import { idOf, toClientKeyMessage } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/** GitLab's ErrorTracking::ClientKey public key: `glet_` and 16 random bytes in hex. */
export const generatePublicKey = () => `glet_${randomBytes(16).toString("hex")}`;

/** A new active client key of the project (GitLab sets no limit on how many). */
export const createClientKey =
  (deps: ErrorTrackingDeps) =>
  async (req: ProjectRef__Output): Promise<ClientKey> =>
    toClientKeyMessage(await deps.prisma.errorTrackingClientKey.create({ data: { projectId: idOf(req.projectId), publicKey: generatePublicKey() } }));
