import { status } from "@grpc/grpc-js";
import { notFound, ServiceError } from "@quarry/grpc";
import type { ResendHookEventRequest__Output } from "@quarry/proto/types/hook/v1/ResendHookEventRequest";
import type { ResendHookEventResponse } from "@quarry/proto/types/hook/v1/ResendHookEventResponse";
import type { HookDeps } from "../deps.ts";
import { executeHook } from "../delivery/execute.ts";
import { findOwnedHook } from "./hook-common.ts";
import { checkRateLimit } from "./rate-limit.ts";

/**
 * Sends a recorded delivery again, now, with its original payload, trigger, Idempotency-Key and
 * event UUID (GitLab's WebHooks::Events::ResendService); the attempt is recorded like any other.
 * 5 per minute per hook and user. No response at all → 422 with the error.
 */
export const resendHookEvent =
  (deps: HookDeps) =>
  async (req: ResendHookEventRequest__Output): Promise<ResendHookEventResponse> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    await checkRateLimit(deps, `resend:${hook.id}:${Number(req.userId)}`);
    const id = Number(req.hookEventId);
    const log = Number.isSafeInteger(id) && id > 0 ? await deps.prisma.webHookLog.findFirst({ where: { id, hookId: hook.id } }) : null;
    if (!log) throw notFound("Not found");
    const result = await executeHook(deps, hook, {
      trigger: log.trigger,
      payload: log.requestData,
      idempotencyKey: log.idempotencyKey,
      eventUuid: log.eventUuid,
    });
    if (result.status === null) throw new ServiceError(status.FAILED_PRECONDITION, { message: result.error ?? "internal error" }, 422);
    return { responseStatus: result.status };
  };
