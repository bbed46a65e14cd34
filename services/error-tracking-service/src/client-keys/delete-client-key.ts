import type { ClientKey } from "@quarry/proto/types/errortracking/v1/ClientKey";
import type { ClientKeyRef__Output } from "@quarry/proto/types/errortracking/v1/ClientKeyRef";
import { idOf, recordNotFound, toClientKeyMessage } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/** Deletes one of the project's keys and answers it as it was (GitLab presents the destroyed key). */
export const deleteClientKey =
  (deps: ErrorTrackingDeps) =>
  async (req: ClientKeyRef__Output): Promise<ClientKey> => {
    const projectId = idOf(req.projectId);
    const keyId = Number(req.keyId);
    if (!Number.isSafeInteger(keyId) || keyId < 1 || keyId > 2_147_483_647) throw recordNotFound();
    return deps.prisma.$transaction(async (tx) => {
      const row = await tx.errorTrackingClientKey.findFirst({ where: { id: keyId, projectId } });
      if (!row) throw recordNotFound();
      await tx.errorTrackingClientKey.delete({ where: { id: row.id } });
      return toClientKeyMessage(row);
    });
  };
