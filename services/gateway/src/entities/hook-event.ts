import type { HookEvent__Output as HookEvent } from "@quarry/proto/types/hook/v1/HookEvent";

/** A webhook delivery record (GitLab's API::Entities::WebHookLog). */
export function hookEventEntity(e: HookEvent) {
  return {
    id: Number(e.id),
    url: e.url,
    trigger: e.trigger,
    request_headers: JSON.parse(e.requestHeadersJson) as Record<string, string>,
    request_data: JSON.parse(e.requestDataJson) as unknown,
    response_headers: JSON.parse(e.responseHeadersJson) as Record<string, string>,
    response_body: e.responseBody,
    execution_duration: e.executionDuration,
    response_status: e.responseStatus,
  };
}
