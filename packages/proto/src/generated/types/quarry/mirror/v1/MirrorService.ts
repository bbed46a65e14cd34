// Original file: /work/main/proto/quarry/mirror/v1/mirror.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CountMirrorsRequest as _quarry_mirror_v1_CountMirrorsRequest, CountMirrorsRequest__Output as _quarry_mirror_v1_CountMirrorsRequest__Output } from '../../../quarry/mirror/v1/CountMirrorsRequest';
import type { CountMirrorsResponse as _quarry_mirror_v1_CountMirrorsResponse, CountMirrorsResponse__Output as _quarry_mirror_v1_CountMirrorsResponse__Output } from '../../../quarry/mirror/v1/CountMirrorsResponse';

/**
 * Push mirrors. CRUD and sync RPCs arrive with the mirror issue.
 */
export interface MirrorServiceClient extends grpc.Client {
  /**
   * Counts a project's mirrors (used to clean up when a project goes away).
   */
  CountMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  CountMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  CountMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  CountMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Counts a project's mirrors (used to clean up when a project goes away).
   */
  countMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  countMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  countMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  countMirrors(argument: _quarry_mirror_v1_CountMirrorsRequest, callback: grpc.requestCallback<_quarry_mirror_v1_CountMirrorsResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Push mirrors. CRUD and sync RPCs arrive with the mirror issue.
 */
export interface MirrorServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Counts a project's mirrors (used to clean up when a project goes away).
   */
  CountMirrors: grpc.handleUnaryCall<_quarry_mirror_v1_CountMirrorsRequest__Output, _quarry_mirror_v1_CountMirrorsResponse>;
  
}

export interface MirrorServiceDefinition extends grpc.ServiceDefinition {
  CountMirrors: MethodDefinition<_quarry_mirror_v1_CountMirrorsRequest, _quarry_mirror_v1_CountMirrorsResponse, _quarry_mirror_v1_CountMirrorsRequest__Output, _quarry_mirror_v1_CountMirrorsResponse__Output>
}
