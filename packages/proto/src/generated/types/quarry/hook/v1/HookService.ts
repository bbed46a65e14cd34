// Original file: /work/main/proto/quarry/hook/v1/hook.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListRecordedEventsRequest as _quarry_hook_v1_ListRecordedEventsRequest, ListRecordedEventsRequest__Output as _quarry_hook_v1_ListRecordedEventsRequest__Output } from '../../../quarry/hook/v1/ListRecordedEventsRequest';
import type { ListRecordedEventsResponse as _quarry_hook_v1_ListRecordedEventsResponse, ListRecordedEventsResponse__Output as _quarry_hook_v1_ListRecordedEventsResponse__Output } from '../../../quarry/hook/v1/ListRecordedEventsResponse';

/**
 * Webhooks (deliveries arrive with the webhook issue).
 */
export interface HookServiceClient extends grpc.Client {
  /**
   * Lists domain events received from the bus.
   */
  ListRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  ListRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists domain events received from the bus.
   */
  listRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  listRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  listRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  listRecordedEvents(argument: _quarry_hook_v1_ListRecordedEventsRequest, callback: grpc.requestCallback<_quarry_hook_v1_ListRecordedEventsResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Webhooks (deliveries arrive with the webhook issue).
 */
export interface HookServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Lists domain events received from the bus.
   */
  ListRecordedEvents: grpc.handleUnaryCall<_quarry_hook_v1_ListRecordedEventsRequest__Output, _quarry_hook_v1_ListRecordedEventsResponse>;
  
}

export interface HookServiceDefinition extends grpc.ServiceDefinition {
  ListRecordedEvents: MethodDefinition<_quarry_hook_v1_ListRecordedEventsRequest, _quarry_hook_v1_ListRecordedEventsResponse, _quarry_hook_v1_ListRecordedEventsRequest__Output, _quarry_hook_v1_ListRecordedEventsResponse__Output>
}
