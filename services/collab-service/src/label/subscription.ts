import { unauthenticated } from "@quarry/grpc";
import type { LabelSubscriptionRequest__Output } from "@quarry/proto/types/collab/v1/LabelSubscriptionRequest";
import type { LabelSubscriptionResponse } from "@quarry/proto/types/collab/v1/LabelSubscriptionResponse";
import type { CollabDeps } from "../deps.ts";
import { scopeProjectId, toLabelMessage } from "./entity.ts";
import { findLabel } from "./find.ts";
import { resolveParent } from "./parent.ts";

/**
 * GitLab's subscriptions API for labels: any available label (the parent's groups' included), the
 * subscription scoped to the project asked through; `changed: false` when the state already holds
 * (GitLab's 304 Not Modified).
 */
export async function setSubscription(deps: CollabDeps, req: LabelSubscriptionRequest__Output, subscribed: boolean): Promise<LabelSubscriptionResponse> {
  const parent = await resolveParent(deps, req.actor, req.parent);
  if (parent.userId <= 0) throw unauthenticated();
  const label = await findLabel(deps.prisma, parent, req.label, true);
  const key = { labelId: label.id, userId: parent.userId, projectId: scopeProjectId(parent) };
  const current = await deps.prisma.labelSubscription.findUnique({ where: { labelId_userId_projectId: key } });
  if ((current?.subscribed ?? false) === subscribed) return { label: await toLabelMessage(deps.prisma, parent, label), changed: false };
  await deps.prisma.labelSubscription.upsert({ where: { labelId_userId_projectId: key }, create: { ...key, subscribed }, update: { subscribed } });
  return { label: await toLabelMessage(deps.prisma, parent, label), changed: true };
}
