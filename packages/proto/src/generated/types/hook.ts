import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { HookServiceClient as _quarry_hook_v1_HookServiceClient, HookServiceDefinition as _quarry_hook_v1_HookServiceDefinition } from './quarry/hook/v1/HookService';
import type { ListRecordedEventsRequest as _quarry_hook_v1_ListRecordedEventsRequest, ListRecordedEventsRequest__Output as _quarry_hook_v1_ListRecordedEventsRequest__Output } from './quarry/hook/v1/ListRecordedEventsRequest';
import type { ListRecordedEventsResponse as _quarry_hook_v1_ListRecordedEventsResponse, ListRecordedEventsResponse__Output as _quarry_hook_v1_ListRecordedEventsResponse__Output } from './quarry/hook/v1/ListRecordedEventsResponse';
import type { RecordedEvent as _quarry_hook_v1_RecordedEvent, RecordedEvent__Output as _quarry_hook_v1_RecordedEvent__Output } from './quarry/hook/v1/RecordedEvent';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  quarry: {
    hook: {
      v1: {
        /**
         * Webhooks (deliveries arrive with the webhook issue).
         */
        HookService: SubtypeConstructor<typeof grpc.Client, _quarry_hook_v1_HookServiceClient> & { service: _quarry_hook_v1_HookServiceDefinition }
        ListRecordedEventsRequest: MessageTypeDefinition<_quarry_hook_v1_ListRecordedEventsRequest, _quarry_hook_v1_ListRecordedEventsRequest__Output>
        ListRecordedEventsResponse: MessageTypeDefinition<_quarry_hook_v1_ListRecordedEventsResponse, _quarry_hook_v1_ListRecordedEventsResponse__Output>
        RecordedEvent: MessageTypeDefinition<_quarry_hook_v1_RecordedEvent, _quarry_hook_v1_RecordedEvent__Output>
      }
    }
  }
}

