// Original file: /work/main/proto/quarry/ci/v1/ci.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetStorageInfoRequest as _quarry_ci_v1_GetStorageInfoRequest, GetStorageInfoRequest__Output as _quarry_ci_v1_GetStorageInfoRequest__Output } from '../../../quarry/ci/v1/GetStorageInfoRequest';
import type { GetStorageInfoResponse as _quarry_ci_v1_GetStorageInfoResponse, GetStorageInfoResponse__Output as _quarry_ci_v1_GetStorageInfoResponse__Output } from '../../../quarry/ci/v1/GetStorageInfoResponse';

/**
 * CI/CD. Pipelines, jobs and artifacts RPCs arrive with the CI issue.
 */
export interface CiServiceClient extends grpc.Client {
  /**
   * Reports the artifact storage ci-service is wired to (also a readiness probe of the store).
   */
  GetStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  GetStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  GetStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  GetStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Reports the artifact storage ci-service is wired to (also a readiness probe of the store).
   */
  getStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  getStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  getStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  getStorageInfo(argument: _quarry_ci_v1_GetStorageInfoRequest, callback: grpc.requestCallback<_quarry_ci_v1_GetStorageInfoResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * CI/CD. Pipelines, jobs and artifacts RPCs arrive with the CI issue.
 */
export interface CiServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Reports the artifact storage ci-service is wired to (also a readiness probe of the store).
   */
  GetStorageInfo: grpc.handleUnaryCall<_quarry_ci_v1_GetStorageInfoRequest__Output, _quarry_ci_v1_GetStorageInfoResponse>;
  
}

export interface CiServiceDefinition extends grpc.ServiceDefinition {
  GetStorageInfo: MethodDefinition<_quarry_ci_v1_GetStorageInfoRequest, _quarry_ci_v1_GetStorageInfoResponse, _quarry_ci_v1_GetStorageInfoRequest__Output, _quarry_ci_v1_GetStorageInfoResponse__Output>
}
