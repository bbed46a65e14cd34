import type { Hook } from "@quarry/proto/types/hook/v1/Hook";
import type { UpdateHookRequest__Output } from "@quarry/proto/types/hook/v1/UpdateHookRequest";
import type { HookDeps } from "../deps.ts";
import { ENABLED_STATE, findOwnedHook, openSecrets, sealSecrets, toHookMessage } from "./hook-common.ts";
import { applyHookInput } from "./hook-input.ts";
import { enqueueHookAudit, type WithActor } from "./audit.ts";

/**
 * Updates a hook. Omitted secrets are kept, except that a new URL drops the token and URL
 * variables unless they are given again (GitLab's reset_token / reset_url_variables). A
 * successful update re-enables a disabled hook.
 */
export const updateHook =
  (deps: HookDeps) =>
  async (req: WithActor<UpdateHookRequest__Output>): Promise<Hook> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    const input = req.input ?? ({ customHeaders: [], urlVariables: [] } as never);
    const state = await applyHookInput(deps, input, { hook, secrets: openSecrets(deps, hook) }, hook.groupId ? "group" : "project");
    const updated = await deps.prisma.$transaction(async (tx) => {
      const row = await tx.webHook.update({
        where: { id: hook.id },
        data: { ...state.columns, ...ENABLED_STATE, encryptedSecrets: sealSecrets(deps, state.secrets) },
      });
      await enqueueHookAudit(tx, "updated", row, req.actor);
      return row;
    });
    deps.outbox?.kick();
    return toHookMessage(deps, updated);
  };
