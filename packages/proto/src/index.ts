import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { descriptor } from "./generated/descriptor.ts";
import type { ProtoGrpcType as ActivityProto } from "./generated/types/activity.ts";
import type { ProtoGrpcType as CiProto } from "./generated/types/ci.ts";
import type { ProtoGrpcType as CollabProto } from "./generated/types/collab.ts";
import type { ProtoGrpcType as CommonProto } from "./generated/types/common.ts";
import type { ProtoGrpcType as ErrorTrackingProto } from "./generated/types/error_tracking.ts";
import type { ProtoGrpcType as HookProto } from "./generated/types/hook.ts";
import type { ProtoGrpcType as IdentityProto } from "./generated/types/identity.ts";
import type { ProtoGrpcType as MirrorProto } from "./generated/types/mirror.ts";
import type { ProtoGrpcType as RepoProto } from "./generated/types/repo.ts";

/** The options every client and server loads the contracts with; the generated types assume them. */
export const loaderOptions: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

// Loaded from the descriptor embedded at generate time, so bundles need no .proto files.
const packageDefinition = protoLoader.fromJSON(descriptor as unknown as Record<string, unknown>, loaderOptions);
const loaded = grpc.loadPackageDefinition(packageDefinition) as unknown as IdentityProto &
  RepoProto &
  CiProto &
  MirrorProto &
  HookProto &
  CollabProto &
  ErrorTrackingProto &
  ActivityProto &
  CommonProto;

export const identityV1 = loaded.quarry.identity.v1;
export const repoV1 = loaded.quarry.repo.v1;
export const ciV1 = loaded.quarry.ci.v1;
export const mirrorV1 = loaded.quarry.mirror.v1;
export const hookV1 = loaded.quarry.hook.v1;
export const collabV1 = loaded.quarry.collab.v1;
export const errorTrackingV1 = loaded.quarry.errortracking.v1;
export const activityV1 = loaded.quarry.activity.v1;
/** Messages the service contracts share (Actor, PageRequest, PageInfo); no service of its own. */
export const commonV1 = loaded.quarry.common.v1;

export type { IdentityServiceDefinition } from "./generated/types/quarry/identity/v1/IdentityService.ts";
export type { RepoServiceDefinition } from "./generated/types/quarry/repo/v1/RepoService.ts";
export type { CiServiceDefinition } from "./generated/types/quarry/ci/v1/CiService.ts";
export type { MirrorServiceDefinition } from "./generated/types/quarry/mirror/v1/MirrorService.ts";
export type { HookServiceDefinition } from "./generated/types/quarry/hook/v1/HookService.ts";
export type { CollabServiceDefinition } from "./generated/types/quarry/collab/v1/CollabService.ts";
export type { ErrorTrackingServiceDefinition } from "./generated/types/quarry/errortracking/v1/ErrorTrackingService.ts";
export type { ActivityServiceDefinition } from "./generated/types/quarry/activity/v1/ActivityService.ts";
export type { Actor, Actor__Output } from "./generated/types/quarry/common/v1/Actor.ts";
export type { PageRequest, PageRequest__Output } from "./generated/types/quarry/common/v1/PageRequest.ts";
export type { PageInfo, PageInfo__Output } from "./generated/types/quarry/common/v1/PageInfo.ts";
