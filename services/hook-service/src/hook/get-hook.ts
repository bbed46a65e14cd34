import type { GetHookRequest__Output } from "@quarry/proto/types/hook/v1/GetHookRequest";
import type { Hook } from "@quarry/proto/types/hook/v1/Hook";
import type { HookDeps } from "../deps.ts";
import { findOwnedHook, toHookMessage } from "./hook-common.ts";

/** One hook of a project or group; NOT_FOUND `404 Hook Not Found` otherwise. */
export const getHook =
  (deps: HookDeps) =>
  async (req: GetHookRequest__Output): Promise<Hook> =>
    toHookMessage(deps, await findOwnedHook(deps, req.owner, req.hookId));
