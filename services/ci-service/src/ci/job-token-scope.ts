// Shared pieces of the job token scope RPCs (GitLab's Ci::JobToken::Scope and its allowlists).
import { isPositiveInt32 } from "@quarry/gitlab";
import { badRequest, paramError } from "@quarry/grpc";

/** GitLab's `bad_request!(reason)` body: "400 Bad request - <reason>". */
export const badRequestReason = (reason: string) => badRequest(`400 Bad request - ${reason}`);

/** Project and group ids are identity-service's positive 32-bit ids. */
export function validId(value: number, field: string): number {
  if (!isPositiveInt32(value)) throw paramError(`${field} is invalid`);
  return value;
}
