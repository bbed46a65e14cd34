import type { LabelSubscriptionRequest__Output } from "@quarry/proto/types/collab/v1/LabelSubscriptionRequest";
import type { LabelSubscriptionResponse } from "@quarry/proto/types/collab/v1/LabelSubscriptionResponse";
import type { CollabDeps } from "../deps.ts";
import { setSubscription } from "./subscription.ts";

/** POST …/labels/:label_id/unsubscribe. */
export const unsubscribeLabel =
  (deps: CollabDeps) =>
  (req: LabelSubscriptionRequest__Output): Promise<LabelSubscriptionResponse> =>
    setSubscription(deps, req, false);
