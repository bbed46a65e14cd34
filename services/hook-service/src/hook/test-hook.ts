import { randomUUID } from "node:crypto";
import { status } from "@grpc/grpc-js";
import { paramError, ServiceError } from "@quarry/grpc";
import type { TestHookRequest__Output } from "@quarry/proto/types/hook/v1/TestHookRequest";
import type { TestHookResponse } from "@quarry/proto/types/hook/v1/TestHookResponse";
import type { HookDeps } from "../deps.ts";
import { executeHook } from "../delivery/execute.ts";
import { EVENT_KINDS, TEST_TRIGGERS } from "../delivery/events.ts";
import { findOwnedHook } from "./hook-common.ts";
import { checkRateLimit } from "./rate-limit.ts";
import { buildRecordedSample, RECORDED_SAMPLES } from "./recorded-sample.ts";
import { buildTestSample } from "./test-sample.ts";

const unprocessable = (message: string) => new ServiceError(status.FAILED_PRECONDITION, { message }, 422);

/**
 * Sends a sample payload of `trigger` (GitLab's TestHooks::ProjectService; test-sample.ts builds
 * it unless the caller sends one), recorded like any delivery, even to a disabled hook; success
 * re-enables it. A non-2xx answer is 422 with the response body, no answer 422 with the error.
 * 5 per minute per hook owner and user.
 */
export const testHook =
  (deps: HookDeps) =>
  async (req: TestHookRequest__Output): Promise<TestHookResponse> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    // The sample first: a project without commits is 422 without counting against the rate limit.
    const requester = { userId: Number(req.userId), isAdmin: req.userIsAdmin };
    const sample = req.payloadJson
      ? null
      : RECORDED_SAMPLES[req.trigger]
        ? await buildRecordedSample(deps, hook, req.trigger, requester)
        : await buildTestSample(deps, hook, req.trigger, requester);
    await checkRateLimit(deps, `test:${hook.projectId ? `p${hook.projectId}` : `g${hook.groupId}`}:${Number(req.userId)}`);
    const kind = EVENT_KINDS[TEST_TRIGGERS[req.trigger] ?? ""];
    if (!kind) throw unprocessable("Testing not available for this hook");
    let payload: unknown = sample;
    if (req.payloadJson) {
      try {
        payload = JSON.parse(req.payloadJson);
      } catch {
        throw paramError("payload_json is not valid JSON");
      }
    }
    const result = await executeHook(deps, hook, { trigger: kind.trigger, payload, idempotencyKey: randomUUID(), eventUuid: randomUUID() });
    if (result.status === null) throw unprocessable(result.error ?? "internal error");
    if (!result.success) {
      const log = await deps.prisma.webHookLog.findUnique({ where: { id: result.logId } });
      throw unprocessable(log?.responseBody || String(result.status));
    }
    return { responseStatus: result.status };
  };
