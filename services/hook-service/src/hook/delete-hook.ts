import type { DeleteHookRequest__Output } from "@quarry/proto/types/hook/v1/DeleteHookRequest";
import type { Empty } from "@quarry/proto/types/hook/v1/Empty";
import type { HookDeps } from "../deps.ts";
import { findOwnedHook } from "./hook-common.ts";
import { enqueueHookAudit, type WithActor } from "./audit.ts";

/** Deletes a hook; its delivery records and pending deliveries go with it (ON DELETE CASCADE). */
export const deleteHook =
  (deps: HookDeps) =>
  async (req: WithActor<DeleteHookRequest__Output>): Promise<Empty> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    await deps.prisma.$transaction(async (tx) => {
      await tx.webHook.delete({ where: { id: hook.id } });
      await enqueueHookAudit(tx, "destroyed", hook, req.actor);
    });
    deps.outbox?.kick();
    return {};
  };
