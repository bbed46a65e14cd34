import { status } from "@grpc/grpc-js";
import { ServiceError } from "@quarry/grpc";
import type { GetStorageInfoResponse } from "@quarry/proto/types/ci/v1/GetStorageInfoResponse";
import type { CiDeps } from "../deps.ts";

/** A prefix no artifact key uses: listing it touches the bucket without returning anything. */
const PROBE_PREFIX = ".quarry-readiness-probe";

/**
 * Reports the artifact store and probes it: a missing bucket or an unreachable server is
 * UNAVAILABLE (503 at the gateway) rather than a successful answer.
 */
export const getStorageInfo = (deps: CiDeps) => async (): Promise<GetStorageInfoResponse> => {
  try {
    for await (const _ of deps.objectStore.list(PROBE_PREFIX)) break;
  } catch (err) {
    deps.log.warn({ err, bucket: deps.objectStore.bucket }, "artifact storage probe failed");
    throw new ServiceError(status.UNAVAILABLE, { message: "503 Artifact storage unavailable" });
  }
  return {
    kind: deps.storageKind,
    artifactsBucket: deps.objectStore.bucket,
    canPresign: deps.storageKind === "minio",
  };
};
