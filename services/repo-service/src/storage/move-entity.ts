import { paramError } from "@quarry/grpc";
import type { StorageMove } from "@quarry/proto/types/repo/v1/StorageMove";
import type { RepositoryStorageMove } from "../generated/prisma/client.ts";
import { humanState, type MoveContainer } from "./moves.ts";

/** A move as the RPCs answer it. */
export function toStorageMove(m: RepositoryStorageMove): StorageMove {
  return {
    id: m.id,
    containerType: m.containerType,
    containerId: m.containerId,
    state: humanState(m.state),
    sourceStorageName: m.sourceStorageName,
    destinationStorageName: m.destinationStorageName,
    createdAt: m.createdAt.toISOString(),
  };
}

/** `container_type` of a request: "project" or "snippet". */
export function containerType(value: string): MoveContainer {
  if (value !== "project" && value !== "snippet") throw paramError("container_type does not have a valid value");
  return value;
}
