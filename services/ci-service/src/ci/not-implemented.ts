// RPCs of the contract whose handlers have not landed yet answer UNIMPLEMENTED (HTTP 501).
// Temporary: every entry is removed as its handler lands.
import { ServiceError, status } from "@quarry/grpc";

const pending = [
  "CancelPipeline",
  "RetryPipeline",
  "CancelJob",
  "RetryJob",
  "PlayJob",
  "EraseJob",
  "KeepArtifacts",
  "DeleteJobArtifacts",
  "DeleteProjectArtifacts",
] as const;

const unimplemented = async (): Promise<never> => {
  throw new ServiceError(status.UNIMPLEMENTED, { message: "501 Not Implemented" });
};

export const notImplementedHandlers = Object.fromEntries(pending.map((name) => [name, unimplemented])) as Record<
  (typeof pending)[number],
  () => Promise<never>
>;
