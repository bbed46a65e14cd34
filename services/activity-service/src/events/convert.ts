import type { ContributionEvent } from "@quarry/proto/types/activity/v1/ContributionEvent";
import type { Event as EventRow, PushEventPayload as PushRow } from "../generated/prisma/client.ts";
import { actionKey, actionName } from "./actions.ts";

export function eventToProto(r: EventRow & { pushPayload: PushRow | null }): ContributionEvent {
  const data = (r.data ?? {}) as Record<string, unknown>;
  const push = r.pushPayload;
  return {
    id: r.id,
    projectId: r.projectId,
    authorId: r.authorId,
    action: actionKey(r.action),
    actionName: actionName({ action: r.action, targetType: r.targetType, pushAction: push?.action }),
    targetId: r.targetId ?? 0,
    targetIid: r.targetIid ?? 0,
    targetType: r.targetType ?? "",
    targetTitle: r.targetTitle ?? "",
    createdAt: r.createdAt.toISOString(),
    pushData: push
      ? {
          commitCount: push.commitCount,
          action: push.action,
          refType: push.refType,
          commitFrom: push.commitFrom ?? "",
          commitTo: push.commitTo ?? "",
          ref: push.ref,
          commitTitle: push.commitTitle ?? "",
          refCount: push.refCount ?? 0,
        }
      : null,
    noteJson: data.note ? JSON.stringify(data.note) : "",
    wikiPageJson: data.wiki_page ? JSON.stringify(data.wiki_page) : "",
    confidential: r.confidential,
  };
}
