import { randomUUID } from "node:crypto";
import type { CreateHookRequest__Output } from "@quarry/proto/types/hook/v1/CreateHookRequest";
import type { Hook } from "@quarry/proto/types/hook/v1/Hook";
import type { HookDeps } from "../deps.ts";
import { ownerWhere, sealSecrets, toHookMessage } from "./hook-common.ts";
import { applyHookInput } from "./hook-input.ts";
import { enqueueHookAudit, type WithActor } from "./audit.ts";

/** Creates a project or group hook (GitLab's POST /projects/:id/hooks, /groups/:id/hooks). */
export const createHook =
  (deps: HookDeps) =>
  async (req: WithActor<CreateHookRequest__Output>): Promise<Hook> => {
    const owner = ownerWhere(req.owner);
    const kind = "groupId" in owner ? "group" : "project";
    const state = await applyHookInput(deps, req.input ?? ({ customHeaders: [], urlVariables: [] } as never), null, kind);
    const hook = await deps.prisma.$transaction(async (tx) => {
      const created = await tx.webHook.create({
        data: { ...owner, ...state.columns, uuid: randomUUID(), encryptedSecrets: sealSecrets(deps, state.secrets) },
      });
      await enqueueHookAudit(tx, "created", created, req.actor);
      return created;
    });
    deps.outbox?.kick();
    return toHookMessage(deps, hook);
  };
