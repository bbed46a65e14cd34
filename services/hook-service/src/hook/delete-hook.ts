import type { DeleteHookRequest__Output } from "@quarry/proto/types/hook/v1/DeleteHookRequest";
import type { Empty } from "@quarry/proto/types/hook/v1/Empty";
import type { HookDeps } from "../deps.ts";
import { findOwnedHook } from "./hook-common.ts";

/** Deletes a hook; its delivery records and pending deliveries go with it (ON DELETE CASCADE). */
export const deleteHook =
  (deps: HookDeps) =>
  async (req: DeleteHookRequest__Output): Promise<Empty> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    await deps.prisma.webHook.delete({ where: { id: hook.id } });
    return {};
  };
