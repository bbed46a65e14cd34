import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CiServiceClient as _quarry_ci_v1_CiServiceClient, CiServiceDefinition as _quarry_ci_v1_CiServiceDefinition } from './quarry/ci/v1/CiService';
import type { GetStorageInfoRequest as _quarry_ci_v1_GetStorageInfoRequest, GetStorageInfoRequest__Output as _quarry_ci_v1_GetStorageInfoRequest__Output } from './quarry/ci/v1/GetStorageInfoRequest';
import type { GetStorageInfoResponse as _quarry_ci_v1_GetStorageInfoResponse, GetStorageInfoResponse__Output as _quarry_ci_v1_GetStorageInfoResponse__Output } from './quarry/ci/v1/GetStorageInfoResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  quarry: {
    ci: {
      v1: {
        /**
         * CI/CD. Pipelines, jobs and artifacts RPCs arrive with the CI issue.
         */
        CiService: SubtypeConstructor<typeof grpc.Client, _quarry_ci_v1_CiServiceClient> & { service: _quarry_ci_v1_CiServiceDefinition }
        GetStorageInfoRequest: MessageTypeDefinition<_quarry_ci_v1_GetStorageInfoRequest, _quarry_ci_v1_GetStorageInfoRequest__Output>
        GetStorageInfoResponse: MessageTypeDefinition<_quarry_ci_v1_GetStorageInfoResponse, _quarry_ci_v1_GetStorageInfoResponse__Output>
      }
    }
  }
}

