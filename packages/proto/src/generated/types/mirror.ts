import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CountMirrorsRequest as _quarry_mirror_v1_CountMirrorsRequest, CountMirrorsRequest__Output as _quarry_mirror_v1_CountMirrorsRequest__Output } from './quarry/mirror/v1/CountMirrorsRequest';
import type { CountMirrorsResponse as _quarry_mirror_v1_CountMirrorsResponse, CountMirrorsResponse__Output as _quarry_mirror_v1_CountMirrorsResponse__Output } from './quarry/mirror/v1/CountMirrorsResponse';
import type { MirrorServiceClient as _quarry_mirror_v1_MirrorServiceClient, MirrorServiceDefinition as _quarry_mirror_v1_MirrorServiceDefinition } from './quarry/mirror/v1/MirrorService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  quarry: {
    mirror: {
      v1: {
        CountMirrorsRequest: MessageTypeDefinition<_quarry_mirror_v1_CountMirrorsRequest, _quarry_mirror_v1_CountMirrorsRequest__Output>
        CountMirrorsResponse: MessageTypeDefinition<_quarry_mirror_v1_CountMirrorsResponse, _quarry_mirror_v1_CountMirrorsResponse__Output>
        /**
         * Push mirrors. CRUD and sync RPCs arrive with the mirror issue.
         */
        MirrorService: SubtypeConstructor<typeof grpc.Client, _quarry_mirror_v1_MirrorServiceClient> & { service: _quarry_mirror_v1_MirrorServiceDefinition }
      }
    }
  }
}

